//! Every timestamp the REST face answers is in protobuf's JSON form (RFC
//! 3339 in UTC with `Z`), the one JSON mapping the API follows: a session's
//! expiries, an API key's creation and, after a rotation, its expiry.

#![allow(clippy::unwrap_used)]

use serde_json::json;
use skit_proto::v1::AccountKind;
use skit_testkit::{TestDb, assert_json_timestamp, spawn_game};

#[tokio::test]
async fn sessions_and_api_keys_answer_times_with_z() {
    let db = TestDb::sqlite();
    let app = spawn_game(&db).await;
    let http = app.http();
    let bot = app.account("robot", AccountKind::Bot).await;

    let (status, guest) = http
        .call("POST", "/v1/accounts/guest", None, Some(json!({})))
        .await;
    let (created_status, created) = http
        .call(
            "POST",
            "/v1/accounts/me/api-keys",
            Some(&bot.token),
            Some(json!({"label": "ci", "scopes": ["read"]})),
        )
        .await;
    let id = created["apiKey"]["apiKeyId"].as_str().unwrap().to_owned();
    let (rotated_status, _) = http
        .call(
            "POST",
            &format!("/v1/accounts/me/api-keys/{id}/rotate"),
            Some(&bot.token),
            Some(json!({"graceMs": "60000"})),
        )
        .await;
    let (listed_status, listed) = http
        .call("GET", "/v1/accounts/me/api-keys", Some(&bot.token), None)
        .await;
    let (sessions_status, sessions) = http
        .call(
            "GET",
            "/v1/accounts/me/sessions",
            Some(guest["session"]["accessToken"].as_str().unwrap()),
            None,
        )
        .await;

    assert_eq!(status, 200, "{guest}");
    assert_json_timestamp("accessExpiresAt", &guest["session"]["accessExpiresAt"]);
    assert_json_timestamp("refreshExpiresAt", &guest["session"]["refreshExpiresAt"]);
    assert_eq!(created_status, 200, "{created}");
    assert_json_timestamp("apiKey.createdAt", &created["apiKey"]["createdAt"]);
    assert_eq!(rotated_status, 200);
    assert_eq!(listed_status, 200, "{listed}");
    let keys = listed["apiKeys"].as_array().unwrap();
    let old = keys.iter().find(|k| k["apiKeyId"] == id.as_str()).unwrap();
    assert_json_timestamp("apiKeys[].createdAt", &old["createdAt"]);
    assert_json_timestamp("apiKeys[].expiresAt", &old["expiresAt"]);
    assert_eq!(sessions_status, 200, "{sessions}");
    let session = &sessions["sessions"][0];
    assert_json_timestamp("sessions[].createdAt", &session["createdAt"]);
    assert_json_timestamp("sessions[].expiresAt", &session["expiresAt"]);
    app.stop().await;
}

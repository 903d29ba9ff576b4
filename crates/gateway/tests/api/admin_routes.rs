//! The admin routes reach AdminService with the path's ids and the query's
//! filters.

use hyper::{Method, StatusCode};
use serde_json::json;

use crate::helpers::spawn_app;

#[tokio::test]
async fn set_account_status_takes_the_account_from_the_path() {
    let app = spawn_app().await;
    let body = r#"{"status": "ACCOUNT_STATUS_BANNED", "reason": "cheating"}"#;

    let answer = app
        .call(Method::POST, "/v1/admin/accounts/42/status", Some(body))
        .await;

    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    assert_eq!(
        app.fake.last("SetAccountStatus").unwrap(),
        json!({"accountId": "42", "status": "ACCOUNT_STATUS_BANNED", "reason": "cheating"})
    );
    assert_eq!(answer.json()["status"], "ACCOUNT_STATUS_BANNED");
}

#[tokio::test]
async fn the_audit_log_reads_its_filters_from_the_query() {
    let app = spawn_app().await;

    let answer = app
        .call(
            Method::GET,
            "/v1/admin/audit-log?action=void_game&operatorId=1&pageSize=5",
            None,
        )
        .await;

    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    let sent = app.fake.last("ListAuditLog").unwrap();
    assert_eq!(sent["action"], "void_game");
    assert_eq!(sent["operatorId"], "1");
    assert_eq!(sent["pageSize"], 5);
    assert_eq!(answer.json()["entries"][0]["action"], "void_game");
}

#[tokio::test]
async fn void_game_takes_the_game_from_the_path() {
    let app = spawn_app().await;

    let answer = app
        .call(
            Method::POST,
            "/v1/admin/games/g5/void",
            Some(r#"{"reason": "bug"}"#),
        )
        .await;

    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    assert_eq!(app.fake.last("VoidGame").unwrap()["gameId"], "g5");
    assert_eq!(answer.json()["version"], "9");
}

#[tokio::test]
async fn revoke_credential_takes_account_and_credential_from_the_path() {
    let app = spawn_app().await;

    let answer = app
        .call(
            Method::POST,
            "/v1/admin/accounts/42/credentials/7/revoke",
            Some(r#"{"reason": "leaked"}"#),
        )
        .await;

    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    assert_eq!(
        app.fake.last("RevokeCredential").unwrap(),
        json!({"accountId": "42", "credentialId": "7", "reason": "leaked"})
    );
    assert_eq!(answer.json()["credentialId"], "7");
}

#[tokio::test]
async fn reset_password_takes_the_account_from_the_path() {
    let app = spawn_app().await;

    let answer = app
        .call(
            Method::POST,
            "/v1/admin/accounts/42/reset-password",
            Some(r#"{"reason": "asked by mail"}"#),
        )
        .await;

    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    assert_eq!(
        app.fake.last("ResetPassword").unwrap(),
        json!({"accountId": "42", "reason": "asked by mail"})
    );
    assert_eq!(answer.json()["generatedPassword"], "picked-by-the-fake");
}

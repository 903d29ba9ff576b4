//! gRPC statuses map to HTTP once, with one JSON error body; the gateway's
//! own refusals use the same body.

use http_body_util::Full;
use hyper::{Method, Request, StatusCode, body::Bytes};
use serde_json::json;
use skit_gateway::RestConfig;

use crate::helpers::{spawn_app, spawn_with};

#[tokio::test]
async fn each_status_maps_to_its_http_code_and_name() {
    let app = spawn_app().await;
    let cases = [
        (3, 400, "INVALID_ARGUMENT"),
        (16, 401, "UNAUTHENTICATED"),
        (7, 403, "PERMISSION_DENIED"),
        (5, 404, "NOT_FOUND"),
        (6, 409, "ALREADY_EXISTS"),
        (10, 409, "ABORTED"),
        (9, 409, "FAILED_PRECONDITION"),
        (8, 429, "RESOURCE_EXHAUSTED"),
        (4, 504, "DEADLINE_EXCEEDED"),
        (14, 503, "UNAVAILABLE"),
        (13, 500, "INTERNAL"),
        (2, 500, "UNKNOWN"),
        (12, 500, "UNIMPLEMENTED"),
    ];
    for (code, http, name) in cases {
        let path = format!("/v1/games/err-{code}/view");

        let answer = app.call(Method::GET, &path, None).await;

        assert_eq!(answer.status.as_u16(), http, "code {code}: {}", answer.text);
        // A status without details takes its reason from its class.
        assert_eq!(
            answer.json(),
            json!({
                "code": name,
                "reason": name.to_lowercase(),
                "message": format!("failure {code}"),
                "fieldViolations": [],
                "metadata": {},
                "details": [],
            })
        );
    }
}

#[tokio::test]
async fn a_missing_token_is_401() {
    let app = spawn_app().await;

    let answer = app.send(Method::GET, "/v1/accounts/me", None, &[]).await;

    assert_eq!(answer.status, StatusCode::UNAUTHORIZED);
    assert_eq!(answer.json()["code"], "UNAUTHENTICATED");
}

#[tokio::test]
async fn rich_details_come_through_as_typed_json() {
    let app = spawn_app().await;
    let body = r#"{"moveId": "m", "action": {"play": {"cards": ["7C"]}}}"#;

    let answer = app
        .call(Method::POST, "/v1/games/err-details/moves", Some(body))
        .await;

    assert_eq!(answer.status, StatusCode::BAD_REQUEST);
    let error = answer.json();
    assert_eq!(error["code"], "INVALID_ARGUMENT");
    assert_eq!(error["message"], "illegal action");
    let detail = &error["details"][0];
    assert_eq!(detail["@type"], "type.googleapis.com/google.rpc.BadRequest");
    assert_eq!(detail["fieldViolations"][0]["field"], "action.play.cards");
    assert_eq!(
        detail["fieldViolations"][0]["description"],
        "7C is not in your hand"
    );
    assert_eq!(
        error["fieldViolations"],
        json!([{"field": "action.play.cards", "description": "7C is not in your hand"}])
    );
}

#[tokio::test]
async fn error_info_comes_to_the_top_of_the_body() {
    let app = spawn_app().await;

    let stale = app
        .call(Method::GET, "/v1/games/err-stale/view", None)
        .await;
    let outage = app
        .call(Method::GET, "/v1/games/err-outage/view", None)
        .await;

    assert_eq!(stale.status, StatusCode::CONFLICT);
    let stale = stale.json();
    assert_eq!(stale["code"], "ABORTED");
    assert_eq!(stale["reason"], "stale_version");
    assert_eq!(
        stale["metadata"],
        json!({"current_version": "5", "expected_version": "3"})
    );
    assert_eq!(
        stale["details"][0]["@type"],
        "type.googleapis.com/google.rpc.ErrorInfo"
    );
    assert_eq!(stale["details"][0]["domain"], "skitgubbe");
    assert!(stale.get("retryDelay").is_none(), "{stale}");
    assert_eq!(outage.status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(outage.headers["retry-after"], "2", "1.5 s, rounded up");
    let outage = outage.json();
    assert_eq!(outage["reason"], "unavailable");
    assert_eq!(outage["retryDelay"], "1.5s");
}

#[tokio::test]
async fn malformed_json_is_400_naming_the_position() {
    let app = spawn_app().await;

    let answer = app
        .call(Method::POST, "/v1/games", Some(r#"{"players": 3,"#))
        .await;

    assert_eq!(answer.status, StatusCode::BAD_REQUEST);
    let error = answer.json();
    assert_eq!(error["code"], "INVALID_ARGUMENT");
    assert_eq!(error["reason"], "malformed_json");
    let message = error["message"].as_str().unwrap();
    assert!(message.contains("line 1 column"), "{message}");
}

#[tokio::test]
async fn a_wrong_field_is_400_naming_the_field() {
    let app = spawn_app().await;

    let unknown = app
        .call(Method::POST, "/v1/games", Some(r#"{"playerz": 3}"#))
        .await;
    let mistyped = app
        .call(Method::POST, "/v1/games", Some(r#"{"players": "many"}"#))
        .await;

    assert_eq!(unknown.status, StatusCode::BAD_REQUEST);
    assert!(
        unknown.json()["message"]
            .as_str()
            .unwrap()
            .contains("playerz")
    );
    assert_eq!(
        mistyped.status,
        StatusCode::BAD_REQUEST,
        "{}",
        mistyped.text
    );
}

#[tokio::test]
async fn bad_query_parameters_are_400() {
    let app = spawn_app().await;

    let unknown = app
        .call(Method::GET, "/v1/games/g1/view?sight=2", None)
        .await;
    let mistyped = app
        .call(Method::GET, "/v1/games/g1/view?seat=two", None)
        .await;

    assert_eq!(unknown.status, StatusCode::BAD_REQUEST);
    assert!(
        unknown.json()["message"]
            .as_str()
            .unwrap()
            .contains("sight")
    );
    assert_eq!(mistyped.status, StatusCode::BAD_REQUEST);
    assert!(
        mistyped.json()["message"]
            .as_str()
            .unwrap()
            .contains("seat")
    );
    assert_eq!(unknown.json()["fieldViolations"][0]["field"], "sight");
    assert_eq!(mistyped.json()["fieldViolations"][0]["field"], "seat");
    assert_eq!(mistyped.json()["reason"], "invalid_argument");
}

#[tokio::test]
async fn unknown_routes_and_methods_answer_json() {
    let app = spawn_app().await;

    let missing = app.call(Method::GET, "/v2/nothing", None).await;
    let wrong_method = app.call(Method::DELETE, "/v1/games", None).await;

    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    assert_eq!(missing.json()["code"], "NOT_FOUND");
    assert_eq!(missing.json()["reason"], "no_such_route");
    assert_eq!(wrong_method.status, StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(wrong_method.json()["code"], "UNIMPLEMENTED");
    assert_eq!(wrong_method.json()["reason"], "method_not_allowed");
}

#[tokio::test]
async fn an_oversized_body_is_413() {
    let config = RestConfig {
        body_limit: 32,
        ..RestConfig::default()
    };
    let app = spawn_with(&config, false).await;
    let body = format!(r#"{{"name": "{}"}}"#, "x".repeat(100));

    let answer = app
        .call(Method::POST, "/v1/accounts/guest", Some(&body))
        .await;

    assert_eq!(answer.status, StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(answer.json()["code"], "RESOURCE_EXHAUSTED");
    assert_eq!(answer.json()["reason"], "body_too_large");
}

#[tokio::test]
async fn a_slow_answer_is_504() {
    let config = RestConfig {
        timeout: std::time::Duration::from_millis(50),
        ..RestConfig::default()
    };
    let app = spawn_with(&config, false).await;

    let answer = app.call(Method::GET, "/v1/games/slow/view", None).await;

    assert_eq!(answer.status, StatusCode::GATEWAY_TIMEOUT);
    assert_eq!(answer.json()["code"], "DEADLINE_EXCEEDED");
    assert_eq!(answer.json()["reason"], "timeout");
}

#[tokio::test]
async fn a_compressed_body_is_refused_not_read_as_plain() {
    let app = spawn_app().await;
    let post = |encoding: &str| {
        Request::builder()
            .method(Method::POST)
            .uri(app.url("/v1/accounts/guest"))
            .header("content-type", "application/json")
            .header("content-encoding", encoding)
            .body(Full::new(Bytes::from_static(br#"{"name":"plain"}"#)))
            .expect("request")
    };

    let gzip = app.raw(post("gzip")).await;
    let identity = app.raw(post("identity")).await;

    assert_eq!(
        gzip.status,
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
        "{}",
        gzip.text
    );
    assert_eq!(gzip.json()["code"], "INVALID_ARGUMENT");
    assert_eq!(gzip.json()["reason"], "unsupported_media_type");
    assert!(
        gzip.json()["message"]
            .as_str()
            .unwrap_or_default()
            .contains("gzip")
    );
    assert_eq!(identity.status, StatusCode::OK, "{}", identity.text);
    assert_eq!(
        app.fake.calls("CreateGuest"),
        1,
        "only the plain body was read"
    );
}

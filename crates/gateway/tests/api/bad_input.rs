//! Bad content as the gateway refuses it before the service sees it: a
//! body of the wrong JSON type names its field, a body not sent as JSON is
//! 415, and bad credentials are told first (401). The schemas bound move
//! ids and names as the services do.

use hyper::{Method, StatusCode};
use serde_json::{Value, json};

use crate::fake::TOKEN;
use crate::helpers::{Answer, TestApp, spawn_app};

/// A POST of `body` with `content_type` and, if given, a bearer `token`.
async fn post(
    app: &TestApp,
    path: &str,
    token: Option<&str>,
    content_type: Option<&str>,
    body: &str,
) -> Answer {
    let auth = token.map(|t| skit_api::bearer_header(t).unwrap());
    let mut headers = Vec::new();
    if let Some(auth) = &auth {
        headers.push(("authorization", auth.to_str().unwrap()));
    }
    if let Some(content_type) = content_type {
        headers.push(("content-type", content_type));
    }
    let request = hyper::Request::builder()
        .method(Method::POST)
        .uri(app.url(path));
    let request = headers
        .iter()
        .fold(request, |r, (name, value)| r.header(*name, *value));
    let body = http_body_util::Full::new(hyper::body::Bytes::from(body.to_owned()));
    app.raw(request.body(body).unwrap()).await
}

fn violation(error: &Value) -> (&str, &str) {
    let first = &error["fieldViolations"][0];
    (
        first["field"].as_str().unwrap_or_default(),
        first["description"].as_str().unwrap_or_default(),
    )
}

#[tokio::test]
async fn a_number_of_the_wrong_type_names_its_field() {
    let app = spawn_app().await;
    let cases = [
        ("/v1/games", r#"{"players": -2}"#, "players", "got -2"),
        (
            "/v1/games/g1/moves",
            r#"{"moveId": "m", "seat": 1.5}"#,
            "seat",
            "got 1.5",
        ),
        (
            "/v1/games/g1/moves",
            r#"{"moveId": "m", "expectedVersion": -1}"#,
            "expected_version",
            "got -1",
        ),
        (
            "/v1/games",
            r#"{"seats": [{}, {"accountId": 7}]}"#,
            "seats[1].account_id",
            "expected a string",
        ),
    ];

    for (path, body, field, got) in cases {
        let answer = app.call(Method::POST, path, Some(body)).await;

        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{}", answer.text);
        let error = answer.json();
        assert_eq!(error["reason"], "malformed_json", "{error}");
        let (named, description) = violation(&error);
        assert_eq!(named, field, "{error}");
        assert!(description.contains(got), "{error}");
        assert!(!description.contains("variant"), "{error}");
        let message = error["message"].as_str().unwrap();
        assert!(message.starts_with(&format!("malformed JSON body: {field}: ")));
    }
    let unsigned = app
        .call(Method::POST, "/v1/games", Some(r#"{"players": 2.5}"#))
        .await;
    let unsigned = unsigned.json();
    let (_, description) = violation(&unsigned);
    assert!(
        description.starts_with("expected an unsigned integer"),
        "{unsigned}"
    );
    assert!(app.fake.last("CreateGame").is_none());
    assert!(app.fake.last("SubmitMove").is_none());
}

#[tokio::test]
async fn a_body_not_sent_as_json_is_415() {
    let app = spawn_app().await;
    let body = r#"{"players": 2}"#;

    for content_type in [Some("text/plain"), None, Some("application/jsonx")] {
        let answer = post(&app, "/v1/games", Some(TOKEN), content_type, body).await;

        assert_eq!(
            answer.status,
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "{content_type:?}: {}",
            answer.text
        );
        let error = answer.json();
        assert_eq!(error["code"], "INVALID_ARGUMENT");
        assert_eq!(error["reason"], "unsupported_media_type");
        assert_eq!(error["fieldViolations"], json!([]));
        assert_eq!(error["metadata"], json!({}));
        assert_eq!(
            error["details"][0]["@type"],
            "type.googleapis.com/google.rpc.ErrorInfo"
        );
    }
    assert!(app.fake.last("CreateGame").is_none());
    let labelled = post(
        &app,
        "/v1/games",
        Some(TOKEN),
        Some("application/json; charset=UTF-8"),
        body,
    )
    .await;
    assert_eq!(labelled.status, StatusCode::OK, "{}", labelled.text);
    // No body needs no content type.
    let join = post(
        &app,
        "/v1/games/g3/join",
        Some(TOKEN),
        Some("text/plain"),
        "",
    )
    .await;
    assert_eq!(join.status, StatusCode::OK, "{}", join.text);
}

#[tokio::test]
async fn credentials_are_checked_before_content() {
    let app = spawn_app().await;
    let malformed = r#"{"players": -2}"#;
    let json = Some("application/json");

    let cases = [
        post(&app, "/v1/games", None, json, malformed).await,
        post(&app, "/v1/games", Some("nobody"), json, malformed).await,
        post(&app, "/v1/games", None, Some("text/plain"), "x").await,
        post(&app, "/v1/games/g1/moves", Some("nobody"), json, "{").await,
        app.send(Method::GET, "/v1/games/g1/view?seat=two", None, &[])
            .await,
    ];
    for answer in cases {
        assert_eq!(answer.status, StatusCode::UNAUTHORIZED, "{}", answer.text);
        assert_eq!(answer.json()["code"], "UNAUTHENTICATED");
    }

    // With good credentials the content is judged; signing up needs none.
    let judged = post(&app, "/v1/games", Some(TOKEN), json, malformed).await;
    let guest = post(&app, "/v1/accounts/guest", None, Some("text/plain"), "x").await;
    assert_eq!(judged.status, StatusCode::BAD_REQUEST, "{}", judged.text);
    assert_eq!(
        guest.status,
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
        "{}",
        guest.text
    );
    assert!(app.fake.last("CreateGame").is_none());
}

#[tokio::test]
async fn ids_and_names_are_bounded_in_the_schemas() {
    let app = spawn_app().await;
    let document = app
        .send(Method::GET, "/openapi.json", None, &[])
        .await
        .json();
    let schemas = &document["components"]["schemas"];

    let move_id = &schemas["SubmitMoveRequest"]["properties"]["moveId"];
    let resign_id = &schemas["ResignRequest"]["properties"]["moveId"];
    let account_name = &schemas["CreateAccountRequest"]["properties"]["name"];
    let guest_name = &schemas["CreateGuestRequest"]["properties"]["name"];

    assert_eq!(move_id["maxLength"], 128, "{move_id}");
    assert_eq!(move_id["minLength"], 1, "{move_id}");
    assert_eq!(move_id["pattern"], skit_api::text::ID_PATTERN);
    assert_eq!(resign_id["maxLength"], 128, "{resign_id}");
    assert_eq!(account_name["pattern"], skit_api::text::name_pattern());
    assert_eq!(guest_name["pattern"], skit_api::text::name_pattern());
}

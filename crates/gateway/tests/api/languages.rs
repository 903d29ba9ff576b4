//! Error messages follow `Accept-Language`; nothing else in the body
//! changes, and a request without it gets the English body as it always
//! was.

use hyper::{Method, StatusCode};
use serde_json::json;

use crate::{fake::TOKEN, helpers::spawn_app};

const MOVE: &str = r#"{"moveId": "m", "action": {"play": {"cards": ["7C"]}}}"#;

#[tokio::test]
async fn a_swedish_reader_gets_a_swedish_message_and_the_same_names() {
    let app = spawn_app().await;
    let auth = skit_api::bearer_header(TOKEN).unwrap();
    let auth = auth.to_str().unwrap();
    let path = "/v1/games/err-details/moves";

    let english = app
        .send(Method::POST, path, Some(MOVE), &[("authorization", auth)])
        .await;
    let swedish = app
        .send(
            Method::POST,
            path,
            Some(MOVE),
            &[
                ("authorization", auth),
                ("accept-language", "sv-SE,sv;q=0.9"),
            ],
        )
        .await;

    assert_eq!(english.status, StatusCode::BAD_REQUEST);
    assert_eq!(swedish.status, StatusCode::BAD_REQUEST);
    let (english, swedish_body) = (english.json(), swedish.json());
    assert_eq!(
        english,
        json!({
            "code": "INVALID_ARGUMENT",
            "reason": "invalid_argument",
            "message": "illegal action",
            "fieldViolations": [
                {"field": "action.play.cards", "description": "7C is not in your hand"}
            ],
            "metadata": {},
            "details": [{
                "@type": "type.googleapis.com/google.rpc.BadRequest",
                "fieldViolations": [{
                    "field": "action.play.cards",
                    "description": "7C is not in your hand",
                    "reason": "",
                }],
            }],
        })
    );
    assert_eq!(
        swedish_body["message"],
        "Fältet action.play.cards är ogiltigt."
    );
    for name in ["code", "reason", "fieldViolations", "metadata", "details"] {
        assert_eq!(swedish_body[name], english[name], "{name}");
    }
    assert_eq!(swedish.headers["content-language"], "sv");
}

#[tokio::test]
async fn english_or_an_unknown_language_leaves_the_body_untouched() {
    let app = spawn_app().await;
    let auth = skit_api::bearer_header(TOKEN).unwrap();
    let auth = auth.to_str().unwrap();

    let plain = app
        .send(
            Method::GET,
            "/v1/games/err-stale/view",
            None,
            &[("authorization", auth)],
        )
        .await;
    for accept in ["en-GB", "de-DE, fr;q=0.5"] {
        let other = app
            .send(
                Method::GET,
                "/v1/games/err-stale/view",
                None,
                &[("authorization", auth), ("accept-language", accept)],
            )
            .await;
        assert_eq!(other.text, plain.text, "{accept}");
        assert!(other.headers.get("content-language").is_none());
    }
}

#[tokio::test]
async fn the_gateways_own_refusals_and_metadata_are_translated_too() {
    let app = spawn_app().await;

    let route = app
        .send(
            Method::GET,
            "/v1/no/such/route",
            None,
            &[("accept-language", "fi")],
        )
        .await;
    let auth = skit_api::bearer_header(TOKEN).unwrap();
    let stale = app
        .send(
            Method::GET,
            "/v1/games/err-stale/view",
            None,
            &[
                ("authorization", auth.to_str().unwrap()),
                ("accept-language", "nb-NO"),
            ],
        )
        .await;

    assert_eq!(route.status, StatusCode::NOT_FOUND);
    assert_eq!(route.json()["reason"], "no_such_route");
    assert_eq!(route.json()["message"], "Osoitetta ei ole.");
    let stale = stale.json();
    assert_eq!(stale["reason"], "stale_version");
    let message = stale["message"].as_str().unwrap();
    assert!(message.starts_with("Spillet har gått videre"), "{message}");
    for version in stale["metadata"].as_object().unwrap().values() {
        assert!(message.contains(version.as_str().unwrap()), "{message}");
    }
}

#[tokio::test]
async fn a_stored_choice_wins_over_accept_language() {
    let app = spawn_app().await;
    let auth = skit_api::bearer_header(TOKEN).unwrap();
    let auth = auth.to_str().unwrap();
    let swedish_browser = [("authorization", auth), ("accept-language", "sv")];

    let before = app
        .send(Method::GET, "/v1/games/err-5/view", None, &swedish_browser)
        .await;
    let chosen = app
        .call(
            Method::POST,
            "/v1/accounts/me/language",
            Some(r#"{"language": "fi"}"#),
        )
        .await;
    let after = app
        .send(Method::GET, "/v1/games/err-5/view", None, &swedish_browser)
        .await;
    let english = app.call(Method::GET, "/v1/games/err-5/view", None).await;

    assert_eq!(before.json()["message"], "Hittades inte.");
    assert_eq!(chosen.status, StatusCode::OK, "{}", chosen.text);
    assert_eq!(chosen.json()["language"], "fi");
    assert_eq!(after.json()["message"], "Ei löytynyt.");
    assert_eq!(after.json()["reason"], "not_found");
    // The choice needs no Accept-Language at all.
    assert_eq!(english.json()["message"], "Ei löytynyt.");
}

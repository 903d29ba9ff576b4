//! Answers a plain JSON client can read without knowing proto3: every field
//! without presence is there even at its default, and whole numbers are
//! integers.

use hyper::{Method, StatusCode};
use serde_json::json;

use crate::helpers::spawn_app;

#[tokio::test]
async fn a_view_has_every_field_even_at_its_default() {
    let app = spawn_app().await;

    let answer = app.call(Method::GET, "/v1/games/g1/view", None).await;

    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    let view = answer.json();
    assert_eq!(view["awaitsShuffle"], false);
    assert_eq!(view["dealer"], 0);
    assert_eq!(view["rated"], false);
    assert_eq!(view["stockSize"], 0);
    assert_eq!(view["tableCards"], json!([]));
    assert_eq!(view["legalActions"], json!([]));
    assert_eq!(view["drawnByLimit"], false);
    // A field with presence is left out while unset: no seat, no result.
    let fields = view.as_object().unwrap();
    assert!(!fields.contains_key("viewerSeat"), "{}", answer.text);
    assert!(!fields.contains_key("result"), "{}", answer.text);
}

#[tokio::test]
async fn an_empty_long_poll_lists_no_games() {
    let app = spawn_app().await;

    let answer = app
        .call(Method::GET, "/v1/games?myTurnOnly=true&waitMs=1000", None)
        .await;

    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    assert_eq!(answer.text, r#"{"games":[],"nextPageToken":""}"#);
}

#[tokio::test]
async fn seat_zero_and_version_zero_are_written() {
    let app = spawn_app().await;

    let joined = app
        .call(Method::POST, "/v1/games/g3/join", Some(r#"{"seat": 0}"#))
        .await;
    let moved = app
        .call(
            Method::POST,
            "/v1/games/g3/moves",
            Some(r#"{"moveId": "m1", "action": {"pickup": true}}"#),
        )
        .await;

    assert_eq!(joined.status, StatusCode::OK, "{}", joined.text);
    assert_eq!(joined.json()["seat"], 0);
    assert_eq!(moved.status, StatusCode::OK, "{}", moved.text);
    // The move was made against version 0, which the request left out.
    assert_eq!(app.fake.last("SubmitMove").unwrap()["expectedVersion"], "0");
    assert_eq!(moved.json()["view"]["seats"], json!([]));
}

#[tokio::test]
async fn whole_option_values_come_back_as_integers() {
    let app = spawn_app().await;

    let answer = app.call(Method::GET, "/v1/games/g1/view", None).await;

    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    assert!(
        answer.text.contains(r#""options":{"phase2.min":2}"#),
        "{}",
        answer.text
    );
    assert_eq!(
        answer.json()["rules"]["options"]["phase2.min"].as_u64(),
        Some(2)
    );
}

#[tokio::test]
async fn doubles_keep_their_fraction_and_lose_a_zero_one() {
    let app = spawn_app().await;

    let answer = app
        .call(Method::GET, "/v1/ratings?accountIds=7", None)
        .await;

    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    let rating = &answer.json()["ratings"][0];
    assert_eq!(rating["mu"].as_f64(), Some(27.5));
    assert_eq!(rating["conservative"].as_u64(), Some(5), "{}", answer.text);
}

#[tokio::test]
async fn watched_views_are_written_the_same_way() {
    let app = spawn_app().await;

    let answer = app.call(Method::GET, "/v1/games/g1/watch", None).await;

    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    let first = answer
        .text
        .lines()
        .find_map(|line| line.strip_prefix("data:"))
        .expect("a data line");
    let view: serde_json::Value = serde_json::from_str(first.trim()).unwrap();
    assert_eq!(view["awaitsShuffle"], false);
    assert_eq!(view["stockSize"], 0);
    assert_eq!(
        view["rules"]["options"]["phase2.min"].as_u64(),
        Some(2),
        "{first}"
    );
}

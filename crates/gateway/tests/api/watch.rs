//! WatchGame as Server-Sent Events.

use hyper::{Method, StatusCode};
use serde_json::Value;

use crate::helpers::spawn_app;

/// The `(event, id, data)` of each event in an SSE body.
fn events(text: &str) -> Vec<(String, String, Value)> {
    text.split("\n\n")
        .filter(|block| block.lines().any(|l| l.starts_with("data:")))
        .map(|block| {
            let field = |name: &str| {
                block
                    .lines()
                    .filter_map(|l| l.strip_prefix(name))
                    .map(str::trim)
                    .collect::<Vec<_>>()
                    .join("\n")
            };
            let data = serde_json::from_str(&field("data:")).unwrap();
            (field("event:"), field("id:"), data)
        })
        .collect()
}

#[tokio::test]
async fn each_view_is_one_data_event() {
    let app = spawn_app().await;

    let answer = app
        .call(
            Method::GET,
            "/v1/games/g1/watch?fromVersion=10&spectator=true",
            None,
        )
        .await;

    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    let content_type = answer.headers["content-type"].to_str().unwrap();
    assert!(
        content_type.starts_with("text/event-stream"),
        "{content_type}"
    );
    let events = events(&answer.text);
    let versions: Vec<&str> = events
        .iter()
        .map(|(_, _, v)| v["version"].as_str().unwrap())
        .collect();
    assert_eq!(versions, ["11", "12", "13"]);
    assert!(events.iter().all(|(event, _, _)| event.is_empty()));
    assert_eq!(events[2].1, "13");
    assert_eq!(events[0].2["gameId"], "g1");
    let sent = app.fake.last("WatchGame").unwrap();
    assert_eq!(sent["fromVersion"], "10");
    assert_eq!(sent["spectator"], true);
}

#[tokio::test]
async fn last_event_id_resumes_the_stream() {
    let app = spawn_app().await;
    let auth = skit_api::bearer_header(crate::fake::TOKEN).unwrap();
    let auth = auth.to_str().unwrap();

    let answer = app
        .send(
            Method::GET,
            "/v1/games/g1/watch",
            None,
            &[("authorization", auth), ("last-event-id", "20")],
        )
        .await;

    assert_eq!(events(&answer.text)[0].2["version"], "21");
}

#[tokio::test]
async fn a_failing_stream_ends_with_an_error_event() {
    let app = spawn_app().await;

    let answer = app
        .call(Method::GET, "/v1/games/err-stream/watch", None)
        .await;

    let events = events(&answer.text);
    assert_eq!(events.len(), 2, "{}", answer.text);
    assert_eq!(events[1].0, "error");
    assert_eq!(events[1].2["code"], "NOT_FOUND");
    assert_eq!(events[1].2["message"], "game vanished");
}

#[tokio::test]
async fn a_refused_watch_is_a_plain_http_error() {
    let app = spawn_app().await;

    let answer = app.call(Method::GET, "/v1/games/err-7/watch", None).await;

    assert_eq!(answer.status, StatusCode::FORBIDDEN);
    assert_eq!(answer.json()["code"], "PERMISSION_DENIED");
}

//! ExportGames as NDJSON: one message per line, a failure mid-stream as a
//! last `error` line, a refusal before the first line as the usual error.

use hyper::{Method, StatusCode};
use serde_json::Value;

use crate::helpers::spawn_app;

fn lines(text: &str) -> Vec<Value> {
    assert!(text.ends_with('\n'), "every line ends: {text:?}");
    text.lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}")))
        .collect()
}

#[tokio::test]
async fn each_record_is_one_json_line() {
    let app = spawn_app().await;

    let answer = app
        .call(
            Method::GET,
            "/v1/export/games?finishedFrom=2025-01-01T00:00:00Z&seatViews=true&pageSize=2",
            None,
        )
        .await;

    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    let content_type = answer.headers["content-type"].to_str().unwrap();
    assert_eq!(content_type, "application/x-ndjson");
    let lines = lines(&answer.text);
    assert_eq!(lines.len(), 3, "{}", answer.text);
    assert_eq!(lines[0]["game"]["gameId"], "g1");
    assert_eq!(
        lines[0]["game"]["actions"][0],
        r#"{"seat":0,"play":["7C"]}"#
    );
    assert_eq!(lines[1]["game"]["gameId"], "g2");
    assert_eq!(lines[2]["page"]["nextPageToken"], "after-g2");
    let sent = app.fake.last("ExportGames").unwrap();
    assert_eq!(sent["finishedFrom"], "2025-01-01T00:00:00Z");
    assert_eq!(sent["seatViews"], true);
    assert_eq!(sent["pageSize"], 2);
}

#[tokio::test]
async fn a_failure_mid_stream_is_the_last_line() {
    let app = spawn_app().await;

    let answer = app
        .call(
            Method::GET,
            "/v1/export/games?tournamentId=err-stream",
            None,
        )
        .await;

    // The status went out with the first line.
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    let lines = lines(&answer.text);
    assert_eq!(lines.len(), 2, "{}", answer.text);
    assert_eq!(lines[0]["game"]["gameId"], "g1");
    let error = &lines[1]["error"];
    assert_eq!(error["code"], "NOT_FOUND", "{error}");
    assert_eq!(error["message"], "game vanished");
}

#[tokio::test]
async fn a_refusal_before_the_first_line_is_an_error_answer() {
    let app = spawn_app().await;

    let answer = app
        .call(Method::GET, "/v1/export/games?tournamentId=err-7", None)
        .await;

    assert_eq!(answer.status, StatusCode::FORBIDDEN, "{}", answer.text);
    let content_type = answer.headers["content-type"].to_str().unwrap();
    assert!(
        content_type.starts_with("application/json"),
        "{content_type}"
    );
    assert_eq!(answer.json()["code"], "PERMISSION_DENIED");
}

#[tokio::test]
async fn the_document_gives_the_ndjson_answer() {
    let app = spawn_app().await;

    let document = app
        .send(Method::GET, "/openapi.json", None, &[])
        .await
        .json();

    let operation = &document["paths"]["/v1/export/games"]["get"];
    let content = &operation["responses"]["200"]["content"];
    let schema = &content["application/x-ndjson"]["schema"]["$ref"];
    assert_eq!(schema, "#/components/schemas/ExportRecord", "{operation}");
    let names: Vec<&str> = operation["parameters"]
        .as_array()
        .map(|p| p.iter().filter_map(|p| p["name"].as_str()).collect())
        .unwrap_or_default();
    for name in [
        "finishedFrom",
        "finishedBefore",
        "tournamentId",
        "accountId",
    ] {
        assert!(names.contains(&name), "{names:?}");
    }
}

//! Bad input to the matchmaker is refused naming the field and stores no
//! ticket: text no database can store (a NUL) in a ruleset, on both
//! databases; JSON of the wrong type; a body not sent as JSON. Bad
//! credentials are told before bad content.

use serde_json::{Value, json};
use skit_proto::v1::{AccountKind, EnqueueRequest, Rules};
use skit_testkit::*;
use tonic::Code;

use crate::helpers::enqueue_request;

on_both_databases!(a_nul_in_a_ruleset_is_refused_naming_the_field);

fn enqueue_json(body: &Value) -> EnqueueRequest {
    EnqueueRequest {
        rules: Some(serde_json::from_value::<Rules>(body["rules"].clone()).expect("rules")),
        ..enqueue_request("mas", &[2], false)
    }
}

async fn a_nul_in_a_ruleset_is_refused_naming_the_field(mm_db: &TestDb) {
    let game_db = TestDb::sqlite();
    let game = spawn_game(&game_db).await;
    let mm = spawn_matchmaker(mm_db, &game).await;
    let mut client = mm.client().await;
    let http = mm.http();
    let ann = game.account("ann", AccountKind::Player).await;

    let cases = [
        (json!({"rules": {"preset": "ma\u{0}s"}}), "rules.preset"),
        (
            json!({"rules": {"preset": "mas", "options": {"deck": ["a", "b\u{0}"]}}}),
            "rules.options.deck[1]",
        ),
    ];
    for (body, field) in cases {
        let want = Expected::invalid(field);
        let request = authed(enqueue_json(&body), &ann.token);
        want.grpc(&client.enqueue(request).await.expect_err(field));
        let answer = http
            .call("POST", "/v1/tickets", Some(&ann.token), Some(body))
            .await;
        want.rest(&answer);
    }

    // Nothing was queued: Ann's first ticket is accepted.
    mm.enqueue(&ann, enqueue_request("mas", &[2], false)).await;
    drop((client, http));
    mm.stop().await;
    game.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rest_bodies_of_the_wrong_type_or_kind_are_named() {
    let (game_db, mm_db) = (TestDb::sqlite(), TestDb::sqlite());
    let game = spawn_game(&game_db).await;
    let mm = spawn_matchmaker(&mm_db, &game).await;
    let http = mm.http();
    let ann = game.account("ann", AccountKind::Player).await;

    // A count of the wrong sign names its index.
    let body = json!({"rules": {"preset": "mas"}, "playerCounts": [2, -3]});
    let answer = http
        .call("POST", "/v1/tickets", Some(&ann.token), Some(body))
        .await;
    let want = Expected {
        field: Some("player_counts[1]"),
        ..Expected::new(Code::InvalidArgument, "malformed_json")
    };
    want.rest(&answer);
    let description = answer.1["fieldViolations"][0]["description"].as_str();
    assert!(
        description.is_some_and(|d| d.starts_with("expected an unsigned integer")),
        "{}",
        answer.1
    );

    // Not JSON: 415, unless the credentials are bad, which come first.
    let plain = r#"{"rules": {"preset": "mas"}}"#;
    let (status, error) = http
        .raw(
            "POST",
            "/v1/tickets",
            Some(&ann.token),
            Some("text/plain"),
            plain,
        )
        .await;
    assert_eq!(status, 415, "{error}");
    assert_eq!(error["reason"], "unsupported_media_type", "{error}");
    let unauthenticated = Expected::new(Code::Unauthenticated, "unauthenticated");
    let answer = http
        .raw(
            "POST",
            "/v1/tickets",
            Some("skt_nobody"),
            Some("text/plain"),
            plain,
        )
        .await;
    unauthenticated.rest(&answer);
    let malformed = Some(json!({"playerCounts": -1}));
    let answer = http.call("POST", "/v1/tickets", None, malformed).await;
    unauthenticated.rest(&answer);

    // Nothing was queued: Ann's first ticket is accepted.
    mm.enqueue(&ann, enqueue_request("mas", &[2], false)).await;
    drop(http);
    mm.stop().await;
    game.stop().await;
}

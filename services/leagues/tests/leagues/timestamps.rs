//! A tournament's times over REST are in protobuf's JSON form (RFC 3339 in
//! UTC with `Z`), as every other answer of the API writes them.

use serde_json::json;
use skit_proto::v1::AccountKind;
use skit_testkit::{OPERATOR_TOKEN, TestDb, assert_json_timestamp, spawn_game};

use crate::helpers::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tournament_and_its_entries_answer_times_with_z() {
    let db = TestDb::sqlite();
    let game_db = game_db(&db).await;
    let game = spawn_game(&game_db).await;
    let leagues = spawn_leagues(&db, &game).await;
    let ann = game.account("ann", AccountKind::Player).await;
    let http = skit_testkit::Http::new(leagues.url());
    let body = serde_json::to_value(swiss("Timed", 3, 2)).expect("JSON");

    let (status, created) = http
        .call("POST", "/v1/tournaments", Some(OPERATOR_TOKEN), Some(body))
        .await;
    let id = created["tournamentId"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    let (entered, entry) = http
        .call(
            "POST",
            &format!("/v1/tournaments/{id}/enter"),
            Some(&ann.token),
            Some(json!({})),
        )
        .await;
    let (listed, entries) = http
        .call(
            "GET",
            &format!("/v1/tournaments/{id}/entries"),
            Some(&ann.token),
            None,
        )
        .await;

    assert_eq!(status, 200, "{created}");
    assert_json_timestamp("createdAt", &created["createdAt"]);
    assert_eq!(entered, 200, "{entry}");
    assert_json_timestamp("registeredAt", &entry["registeredAt"]);
    assert_eq!(listed, 200, "{entries}");
    assert_json_timestamp(
        "entries[].registeredAt",
        &entries["entries"][0]["registeredAt"],
    );
    leagues.stop().await;
}

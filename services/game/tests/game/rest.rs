//! The game service over REST/JSON on the same port as gRPC: a whole game
//! played to the end with curl-like requests, the error mapping, the
//! OpenAPI document (as strict as the service) and metrics, and the
//! revealed log checked against the commitment with the fairness crate
//! (what `skit verify` does).

use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};
use skit_testkit::Http;
use skit_testkit::TestDb;
use skit_testkit::spawn_game;

/// A new guest over REST: (account id, token).
async fn guest(http: &Http, name: &str) -> (String, String) {
    let (status, body) = http
        .call(
            "POST",
            "/v1/accounts/guest",
            None,
            Some(json!({"name": name})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    (
        body["accountId"].as_str().expect("id").into(),
        body["token"].as_str().expect("token").into(),
    )
}

/// A game of `rules` for `players` as the README does it: the first creates
/// it (taking seat 0), the others join the open seats in turn. Returns the
/// game id, the creation's answer and the version after the joins.
async fn rest_table(
    http: &Http,
    players: &[(String, String)],
    rules: Value,
) -> (String, Value, Value) {
    let (status, created) = http
        .call(
            "POST",
            "/v1/games",
            Some(&players[0].1),
            Some(json!({"rules": rules, "players": players.len()})),
        )
        .await;
    assert_eq!(status, 200, "{created}");
    let game = created["gameId"].as_str().expect("game id").to_owned();
    let mut version = created["version"].clone();
    for (seat, (_, token)) in players.iter().enumerate().skip(1) {
        let path = format!("/v1/games/{game}/join");
        let (status, joined) = http.call("POST", &path, Some(token), Some(json!({}))).await;
        assert_eq!(status, 200, "{joined}");
        assert_eq!(joined["seat"], json!(seat), "{joined}");
        version = joined["view"]["version"].clone();
    }
    (game, created, version)
}

async fn rest_game(db: &TestDb) {
    // Arrange: the service, two guests, a two-player game
    let app = spawn_game(db).await;
    let http = app.http();
    let players = [guest(&http, "ann").await, guest(&http, "bo").await];
    let (game, created, _) = rest_table(&http, &players, json!({"preset": "skitgubbe"})).await;
    let commitment = created["shuffleCommitment"]
        .as_str()
        .expect("commitment")
        .to_owned();

    // Act: play random legal moves through REST until the game is over
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut moves = 0;
    loop {
        let mut choices = Vec::new();
        let mut over = false;
        for (seat, (_, token)) in players.iter().enumerate() {
            let (status, view) = http
                .call(
                    "GET",
                    &format!("/v1/games/{game}/view?seat={seat}"),
                    Some(token),
                    None,
                )
                .await;
            assert_eq!(status, 200, "{view}");
            over |= view["phase"] == "PHASE_OVER";
            // Every field is written, even at its default (version 0, []).
            let legal = view["legalActions"]
                .as_array()
                .cloned()
                .expect("legal actions");
            if !legal.is_empty() {
                let version = view["version"].as_str().expect("version").to_owned();
                choices.push((seat, version, legal));
            }
        }
        if over {
            break;
        }
        let (seat, version, legal) = choices.choose(&mut rng).expect("someone may act").clone();
        let action = legal.choose(&mut rng).expect("legal").clone();
        let body = json!({"seat": seat, "moveId": format!("m{moves}"), "expectedVersion": version, "action": action});
        let (status, reply) = http
            .call(
                "POST",
                &format!("/v1/games/{game}/moves"),
                Some(&players[seat].1),
                Some(body),
            )
            .await;
        assert_eq!(status, 200, "{reply}");
        moves += 1;
        assert!(moves < 3000, "the game did not end");
    }

    // Assert: the end is visible, the log is revealed and checks out
    let (status, history) = http
        .call(
            "GET",
            &format!("/v1/games/{game}/history"),
            Some(&players[1].1),
            None,
        )
        .await;
    assert_eq!(status, 200, "{history}");
    assert_eq!(history["complete"], true);
    let record = json!({
        "rules": history["rules"], "players": 2, "dealer": history["dealer"].as_u64().unwrap_or(0),
        "shuffleCommitment": commitment, "seed": history["seed"], "actions": history["actions"],
    });
    let record: skit_fairness::GameRecord = serde_json::from_value(record).expect("a game record");
    let summary = record
        .verify()
        .expect("the revealed log matches the commitment");
    assert!(summary.over, "{summary}");
    assert!(summary.loser.is_some() || summary.drawn, "{summary}");
    // The game's figures on `/metrics`: every move counted (the recorder is
    // process-wide, so other tests' moves may add to it), the cached game.
    let (status, metrics) = http.text("GET", "/metrics", None, None).await;
    assert_eq!(status, 200);
    let counted: f64 = metrics
        .lines()
        .find_map(|line| line.strip_prefix("skit_moves_total "))
        .and_then(|value| value.trim().parse().ok())
        .unwrap_or_else(|| panic!("no skit_moves_total in {metrics}"));
    assert!(counted >= f64::from(moves), "{counted} < {moves}");
    assert!(metrics.contains("skit_live_games "), "{metrics}");
    drop(http);
    app.stop().await;
}

async fn rest_errors(db: &TestDb) {
    let app = spawn_game(db).await;
    let http = app.http();
    let players = [guest(&http, "cy").await, guest(&http, "di").await];
    let (game, _, version) = rest_table(&http, &players, json!({"preset": "skitgubbe"})).await;
    let [(_, token), other] = players;
    let path = format!("/v1/games/{game}/moves");
    let play = |card: &str| json!({"seat": 1, "moveId": card, "expectedVersion": version, "action": {"play": {"cards": [card]}}});

    // No token: 401. Someone else's seat: 403. Unknown game: 404.
    assert_eq!(
        http.call("GET", &format!("/v1/games/{game}/view"), None, None)
            .await
            .0,
        401
    );
    let (status, body) = http
        .call("POST", &path, Some(&token), Some(play("2C")))
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (403, Some("PERMISSION_DENIED")),
        "{body}"
    );
    let unknown = "/v1/games/00000000-0000-4000-8000-000000000000/view";
    assert_eq!(http.call("GET", unknown, Some(&token), None).await.0, 404);
    // A malformed card names the field: 400. An illegal move names the rule: 409.
    let (status, body) = http
        .call("POST", &path, Some(&other.1), Some(play("1X")))
        .await;
    assert_eq!(status, 400, "{body}");
    assert!(
        body["message"].as_str().unwrap_or("").contains("play"),
        "{body}"
    );
    let (_, view) = http
        .call(
            "GET",
            &format!("/v1/games/{game}/view?seat=1"),
            Some(&other.1),
            None,
        )
        .await;
    let hand: Vec<&str> = view["hand"]
        .as_array()
        .expect("hand")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let not_held = ["2C", "3C", "4C", "5C"]
        .into_iter()
        .find(|c| !hand.contains(c))
        .expect("a card not held");
    let (status, body) = http
        .call("POST", &path, Some(&other.1), Some(play(not_held)))
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (409, Some("FAILED_PRECONDITION")),
        "{body}"
    );
    // The OpenAPI document and metrics are served.
    let (status, openapi) = http.call("GET", "/openapi.json", None, None).await;
    assert_eq!(status, 200);
    assert!(
        openapi["paths"]["/v1/games/{game_id}/moves"].is_object(),
        "{openapi}"
    );
    let (status, metrics) = http.call("GET", "/metrics", None, None).await;
    assert_eq!(status, 200);
    let metrics = metrics.as_str().unwrap_or("");
    assert!(metrics.contains("http_requests_total"), "{metrics}");
    // The refused moves above are counted by the rule they broke.
    assert!(
        metrics.contains("skit_rejections_total{reason=\""),
        "{metrics}"
    );
    // The moves went through group commit, which shows its batches.
    for summary in [
        "skit_group_commit_appends_count ",
        "skit_group_commit_gather_seconds_sum ",
        "skit_group_commit_seconds_sum ",
    ] {
        assert!(metrics.contains(summary), "{summary}: {metrics}");
    }
    drop(http);
    app.stop().await;
}

/// What `/openapi.json` says a request must hold is what the service
/// refuses without it; what it says an answer holds is there.
async fn rest_strictness(db: &TestDb) {
    // Arrange: a mattis game (whole-number options) and the document
    let app = spawn_game(db).await;
    let http = app.http();
    let players = [guest(&http, "ed").await, guest(&http, "flo").await];
    let rules = json!({"preset": "mattis", "options": {"phase2.min": 3}});
    let (game, _, _) = rest_table(&http, &players, rules).await;
    let (_, document) = http.call("GET", "/openapi.json", None, None).await;
    let schemas = &document["components"]["schemas"];
    let mut turn = None;
    for (seat, (_, token)) in players.iter().enumerate() {
        let path = format!("/v1/games/{game}/view?seat={seat}");
        let (_, view) = http.call("GET", &path, Some(token), None).await;
        if let Some(action) = view["legalActions"].get(0) {
            turn = Some((seat, action.clone(), view));
        }
    }
    let (seat, action, view) = turn.expect("someone may act");
    let token = Some(players[seat].1.as_str());
    let moves = format!("/v1/games/{game}/moves");

    // Act and assert: each required field left out (or null) is refused
    let required = schemas["SubmitMoveRequest"]["required"].clone();
    assert_eq!(required, json!(["moveId", "action"]));
    let full =
        json!({"seat": seat, "moveId": "m1", "expectedVersion": view["version"], "action": action});
    for (field, named) in [("moveId", "move_id"), ("action", "action")] {
        let mut left_out = full.clone();
        left_out.as_object_mut().expect("object").remove(field);
        let mut null = full.clone();
        null[field] = Value::Null;
        let (status, answer) = http.call("POST", &moves, token, Some(left_out)).await;
        assert_eq!(status, 400, "{field}: {answer}");
        let message = answer["message"].as_str().unwrap_or("");
        assert!(message.contains(named), "{answer}");
        let (status, answer) = http.call("POST", &moves, token, Some(null)).await;
        assert_eq!(status, 400, "{field} null: {answer}");
    }
    // A oneof member's null is no member: refused, and the schema has no null.
    let no_kind = json!({"seat": seat, "moveId": "m1", "action": {"play": null}});
    assert_eq!(http.call("POST", &moves, token, Some(no_kind)).await.0, 400);
    assert!(
        schemas["ActionInput"]["properties"]["play"]
            .get("nullable")
            .is_none()
    );
    let (status, answer) = http.call("POST", "/v1/games", token, Some(json!({}))).await;
    assert_eq!(schemas["CreateGameRequest"]["required"], json!(["players"]));
    assert_eq!(status, 400, "{answer}");
    // A game id is a UUID, as the document says.
    let view_path = &document["paths"]["/v1/games/{game_id}/view"]["get"];
    assert_eq!(view_path["parameters"][0]["schema"]["format"], "uuid");
    let (status, _) = http.call("GET", "/v1/games/0/view", token, None).await;
    assert_eq!(status, 400);

    // The view has every field the document requires, options as integers
    for field in schemas["View"]["required"].as_array().expect("required") {
        assert!(view.get(field.as_str().expect("name")).is_some(), "{field}");
    }
    let options = &view["rules"]["options"];
    assert_eq!(options["phase2.min"].as_u64(), Some(3), "{options}");
    assert_eq!(
        options["phase2.action_limit"].as_u64(),
        Some(2000),
        "{options}"
    );
    drop(http);
    app.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_document_is_as_strict_as_the_service() {
    rest_strictness(&TestDb::sqlite()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_game_over_rest_on_sqlite() {
    rest_game(&TestDb::sqlite()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_game_over_rest_on_postgres() {
    rest_game(&TestDb::postgres().await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rest_errors_map_to_http_statuses() {
    rest_errors(&TestDb::sqlite()).await;
}

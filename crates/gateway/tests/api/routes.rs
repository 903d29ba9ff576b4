//! Each route reaches the right RPC with the right fields, camelCase JSON
//! in and out.

use hyper::{Method, StatusCode};
use serde_json::json;

use crate::helpers::spawn_app;

#[tokio::test]
async fn create_game_takes_a_camel_case_body_and_answers_camel_case() {
    let app = spawn_app().await;
    let body = r#"{"rules": {"preset": "skitgubbe", "options": {"phase2.pickup": "bottom"}},
        "players": 3, "dealer": 2, "timeControl": {"perMove": "30s"}}"#;

    let answer = app.call(Method::POST, "/v1/games", Some(body)).await;

    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    let sent = app.fake.last("CreateGame").unwrap();
    assert_eq!(sent["players"], 3);
    assert_eq!(sent["rules"]["options"]["phase2.pickup"], "bottom");
    assert_eq!(sent["timeControl"]["perMove"], "30s");
    let got = answer.json();
    assert_eq!(got["gameId"], "g1");
    assert_eq!(got["dealer"], 2);
    // 64-bit integers are strings in the JSON mapping.
    assert_eq!(got["version"], json!((1u64 << 40).to_string()));
}

#[tokio::test]
async fn proto_field_names_are_accepted_on_input() {
    let app = spawn_app().await;
    let body = r#"{"move_id": "m1", "expected_version": "4", "action": {"pickup": true}}"#;

    let answer = app
        .call(Method::POST, "/v1/games/g7/moves", Some(body))
        .await;

    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    let sent = app.fake.last("SubmitMove").unwrap();
    assert_eq!(sent["moveId"], "m1");
    assert_eq!(sent["expectedVersion"], "4");
    assert_eq!(sent["action"], json!({"pickup": true}));
    assert_eq!(answer.json()["version"], "5");
}

#[tokio::test]
async fn submit_move_takes_the_game_from_the_path() {
    let app = spawn_app().await;
    let body = r#"{"gameId": "other", "seat": 1, "moveId": "m2", "expectedVersion": "9",
        "action": {"play": {"cards": ["7C"]}}}"#;

    let answer = app
        .call(Method::POST, "/v1/games/g7/moves", Some(body))
        .await;

    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    let sent = app.fake.last("SubmitMove").unwrap();
    assert_eq!(sent["gameId"], "g7");
    assert_eq!(sent["seat"], 1);
    assert_eq!(sent["action"]["play"]["cards"], json!(["7C"]));
    let view = &answer.json()["view"];
    assert_eq!(view["gameId"], "g7");
    assert_eq!(view["phase"], "PHASE_ONE");
}

#[tokio::test]
async fn join_needs_no_body() {
    let app = spawn_app().await;

    let answer = app.call(Method::POST, "/v1/games/g3/join", None).await;

    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    assert_eq!(app.fake.last("JoinGame").unwrap(), json!({"gameId": "g3"}));
    assert_eq!(answer.json()["seat"], 1);
}

#[tokio::test]
async fn get_view_reads_typed_query_parameters() {
    let app = spawn_app().await;
    let path = "/v1/games/g1/view?seat=2&waitForVersionAfter=7&timeoutMs=250&spectator=false";

    let answer = app.call(Method::GET, path, None).await;

    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    let sent = app.fake.last("GetView").unwrap();
    assert_eq!(
        sent,
        json!({
            "gameId": "g1",
            "seat": 2,
            "spectator": false,
            "waitForVersionAfter": "7",
            "timeoutMs": 250
        })
    );
    assert_eq!(answer.json()["version"], "8");
    assert_eq!(answer.json()["hand"], json!(["7C", "TS"]));
}

#[tokio::test]
async fn query_parameters_may_use_proto_names() {
    let app = spawn_app().await;

    let answer = app
        .call(Method::GET, "/v1/games?my_turn_only=true&waitMs=10", None)
        .await;

    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    assert_eq!(
        app.fake.last("ListGames").unwrap(),
        json!({
            "myTurnOnly": true,
            "includeOver": false,
            "waitMs": 10,
            "pageSize": 0,
            "pageToken": ""
        })
    );
    let games = &answer.json()["games"];
    assert_eq!(games[0]["mySeatsToAct"], json!([0]));
    assert_eq!(games[0]["myTurn"], true);
}

#[tokio::test]
async fn history_reads_after_version() {
    let app = spawn_app().await;

    let answer = app
        .call(Method::GET, "/v1/games/g2/history?afterVersion=3", None)
        .await;

    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    assert_eq!(
        app.fake.last("GetHistory").unwrap(),
        json!({"gameId": "g2", "afterVersion": "3"})
    );
    assert_eq!(answer.json()["gameId"], "g2");
}

#[tokio::test]
async fn guests_need_no_token() {
    let app = spawn_app().await;

    let answer = app
        .send(
            Method::POST,
            "/v1/accounts/guest",
            Some(r#"{"name": "Bo"}"#),
            &[],
        )
        .await;

    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    assert_eq!(
        answer.json(),
        json!({"accountId": "acc-1", "name": "Bo", "token": "good-token"})
    );
}

#[tokio::test]
async fn create_account_takes_an_enum_by_name() {
    let app = spawn_app().await;
    let body = r#"{"name": "Botty", "kind": "ACCOUNT_KIND_BOT"}"#;

    let answer = app.call(Method::POST, "/v1/accounts", Some(body)).await;

    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    assert_eq!(
        app.fake.last("CreateAccount").unwrap()["kind"],
        "ACCOUNT_KIND_BOT"
    );
    assert_eq!(answer.json()["accountId"], "acc-2");
}

#[tokio::test]
async fn set_house_bot_takes_the_account_from_the_path() {
    let app = spawn_app().await;

    let answer = app
        .call(
            Method::POST,
            "/v1/accounts/42/house-bot",
            Some(r#"{"houseBot": true}"#),
        )
        .await;

    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    let sent = app.fake.last("SetHouseBot").unwrap();
    assert_eq!(sent["accountId"], "42");
    assert_eq!(sent["houseBot"], true);
    assert_eq!(
        answer.json(),
        json!({"accountId": "42", "name": "Robot", "kind": "ACCOUNT_KIND_BOT", "houseBot": true,
               "ownerAccountId": ""})
    );
}

#[tokio::test]
async fn who_am_i_passes_the_bearer_token() {
    let app = spawn_app().await;

    let answer = app.call(Method::GET, "/v1/accounts/me", None).await;

    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    assert_eq!(
        answer.json(),
        json!({"accountId": "acc-1", "name": "Ada", "kind": "ACCOUNT_KIND_PLAYER",
               "scopes": ["play", "read"], "ownerAccountId": "", "language": ""})
    );
}

#[tokio::test]
async fn ratings_take_repeated_ids_and_rules_as_json_text() {
    let app = spawn_app().await;
    let path = "/v1/ratings?accountIds=7&accountIds=9&rules=%7B%22preset%22%3A%22mas%22%7D";

    let answer = app.call(Method::GET, path, None).await;

    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    let sent = app.fake.last("GetRatings").unwrap();
    assert_eq!(sent["accountIds"], json!(["7", "9"]));
    assert_eq!(sent["rules"]["preset"], "mas");
    let ratings = &answer.json()["ratings"];
    assert_eq!(ratings[1]["accountId"], "9");
    assert_eq!(ratings[1]["rulesetKey"], "mas");
}

#[tokio::test]
async fn rules_that_are_not_json_are_refused_naming_the_parameter() {
    let app = spawn_app().await;

    let answer = app
        .call(Method::GET, "/v1/leaderboard?rules=mas", None)
        .await;

    assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{}", answer.text);
    assert!(answer.text.contains("rules"), "{}", answer.text);
    assert_eq!(app.fake.last("GetLeaderboard"), None);
}

#[tokio::test]
async fn leaderboard_and_history_reach_their_rpcs() {
    let app = spawn_app().await;

    let board = app
        .call(Method::GET, "/v1/leaderboard?limit=5&minGames=2", None)
        .await;
    let history = app
        .call(Method::GET, "/v1/ratings/history?accountId=3", None)
        .await;

    assert_eq!(board.status, StatusCode::OK, "{}", board.text);
    let sent = app.fake.last("GetLeaderboard").unwrap();
    assert_eq!(
        (sent["limit"].clone(), sent["minGames"].clone()),
        (json!(5), json!(2))
    );
    assert_eq!(board.json()["entries"][0]["rank"], 1);
    assert_eq!(history.status, StatusCode::OK, "{}", history.text);
    assert_eq!(history.json()["changes"][0]["before"]["accountId"], "3");
}

#[tokio::test]
async fn seasons_reach_their_rpcs() {
    let app = spawn_app().await;
    let body = r#"{"name": "Spring", "rules": {"preset": "mas"},
        "startsAt": "2025-03-01T00:00:00Z", "recurrence": "0 0 1 * *",
        "timeZone": "Europe/Stockholm", "requestId": "r1"}"#;

    let created = app.call(Method::POST, "/v1/seasons", Some(body)).await;
    let listed = app
        .call(Method::GET, "/v1/seasons?rulesetKey=mas", None)
        .await;
    let standings = app
        .call(
            Method::GET,
            "/v1/seasons/s7/standings?limit=5&at=2025-03-02T00:00:00Z",
            None,
        )
        .await;

    assert_eq!(created.status, StatusCode::OK, "{}", created.text);
    let sent = app.fake.last("CreateSeason").unwrap();
    assert_eq!(sent["rules"]["preset"], "mas");
    // The fake records a time as its serializer writes it (`Z`).
    let starts = sent["startsAt"].as_str().unwrap();
    assert!(starts.starts_with("2025-03-01T00:00:00"), "{starts}");
    assert_eq!(sent["requestId"], "r1");
    assert_eq!(created.json()["timeZone"], "Europe/Stockholm");
    assert_eq!(listed.status, StatusCode::OK, "{}", listed.text);
    assert_eq!(app.fake.last("ListSeasons").unwrap()["rulesetKey"], "mas");
    assert_eq!(listed.json()["seasons"][0]["seasonId"], "s1");
    assert_eq!(standings.status, StatusCode::OK, "{}", standings.text);
    let sent = app.fake.last("GetSeasonStandings").unwrap();
    assert_eq!(sent["seasonId"], "s7");
    assert_eq!(sent["limit"], 5);
    let at = sent["at"].as_str().unwrap();
    assert!(at.starts_with("2025-03-02T00:00:00"), "{at}");
    let got = standings.json();
    assert_eq!(got["season"]["seasonId"], "s7");
    assert_eq!(got["rows"][0]["provisional"], true);
}

#[tokio::test]
async fn seasons_need_a_bearer_token() {
    let app = spawn_app().await;

    let create = app.send(Method::POST, "/v1/seasons", Some("{}"), &[]).await;
    let list = app.send(Method::GET, "/v1/seasons", None, &[]).await;
    let standings = app
        .send(Method::GET, "/v1/seasons/s1/standings", None, &[])
        .await;

    for answer in [create, list, standings] {
        assert_eq!(answer.status, StatusCode::UNAUTHORIZED, "{}", answer.text);
    }
    assert_eq!(app.fake.calls("CreateSeason"), 0);
    assert_eq!(app.fake.calls("ListSeasons"), 0);
    assert_eq!(app.fake.calls("GetSeasonStandings"), 0);
}

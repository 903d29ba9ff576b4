//! Bad input is refused naming the field, over gRPC and REST, on both
//! databases, and changes nothing: text no database can store (a NUL) in
//! a name, a move id or a request id; names with control or bidirectional
//! formatting characters; JSON of the wrong type; bodies not sent as JSON.
//! Bad credentials are told before bad content.

use serde_json::{Value, json};
use skit_proto::v1::{
    AccountKind, CreateAccountRequest, CreateGuestRequest, ListAccountsRequest, ListGamesRequest,
    ResignRequest, WhoAmIRequest,
};
use skit_testkit::{
    Expected, GameService, OPERATOR_TOKEN, Player, TestDb, authed, on_both_databases, seat_to_act,
    skitgubbe_for, spawn_game, submit, view,
};
use tonic::Code;

on_both_databases!(
    a_nul_is_refused_naming_the_field,
    names_are_trimmed_and_refuse_control_and_bidi_characters
);

async fn account_count(app: &GameService) -> usize {
    let request = ListAccountsRequest {
        kind: AccountKind::Unspecified.into(),
        ..Default::default()
    };
    let listed = app
        .accounts()
        .await
        .list_accounts(authed(request, OPERATOR_TOKEN))
        .await
        .expect("list accounts");
    listed.into_inner().accounts.len()
}

async fn game_count(app: &GameService, player: &Player) -> usize {
    let request = ListGamesRequest {
        include_over: true,
        ..Default::default()
    };
    let listed = app
        .games()
        .await
        .list_games(authed(request, &player.token))
        .await
        .expect("list games");
    listed.into_inner().games.len()
}

async fn a_nul_is_refused_naming_the_field(db: &TestDb) {
    let app = spawn_game(db).await;
    let http = app.http();
    let (guests, game, _) = app.game_with_guests(2).await;
    let mut games = app.games().await;
    let mut accounts = app.accounts().await;
    let accounts_before = account_count(&app).await;
    let (seat, before) = seat_to_act(&mut games, &game, &guests).await;
    let token = guests[seat as usize].token.clone();

    // A guest's and an account's name.
    let want = Expected::invalid("name");
    let guest = CreateGuestRequest {
        name: Some("a\0b".into()),
        ..Default::default()
    };
    want.grpc(&accounts.create_guest(guest).await.expect_err("guest"));
    let body = json!({"name": "a\u{0}b"});
    want.rest(
        &http
            .call("POST", "/v1/accounts/guest", None, Some(body))
            .await,
    );
    let account = CreateAccountRequest {
        name: "bot\0".into(),
        kind: AccountKind::Bot.into(),
        ..Default::default()
    };
    let refused = accounts
        .create_account(authed(account, OPERATOR_TOKEN))
        .await;
    want.grpc(&refused.expect_err("account"));
    let body = json!({"name": "bot\u{0}", "kind": "ACCOUNT_KIND_BOT"});
    let answer = http
        .call("POST", "/v1/accounts", Some(OPERATOR_TOKEN), Some(body))
        .await;
    want.rest(&answer);

    // A move id, for a move and for a resignation.
    let want = Expected::invalid("move_id");
    let legal = before.legal_actions[0].clone();
    let request = submit(&game, seat, &before, legal.clone(), "m\0");
    want.grpc(
        &games
            .submit_move(authed(request, &token))
            .await
            .expect_err("move"),
    );
    let body = json!({
        "seat": seat, "moveId": "m\u{0}", "expectedVersion": before.version.to_string(),
        "action": serde_json::to_value(&legal).expect("JSON"),
    });
    let path = format!("/v1/games/{game}/moves");
    want.rest(&http.call("POST", &path, Some(&token), Some(body)).await);
    let resign = ResignRequest {
        game_id: game.clone(),
        seat,
        move_id: "r\0".into(),
    };
    want.grpc(
        &games
            .resign(authed(resign, &token))
            .await
            .expect_err("resign"),
    );
    let path = format!("/v1/games/{game}/resign");
    let body = json!({"seat": seat, "moveId": "r\u{0}"});
    want.rest(&http.call("POST", &path, Some(&token), Some(body)).await);

    // A request id.
    let want = Expected::invalid("request_id");
    let mut create = skitgubbe_for(&guests);
    create.request_id = "c\0".into();
    let body = serde_json::to_value(&create).expect("JSON");
    let refused = games.create_game(authed(create, &guests[0].token)).await;
    want.grpc(&refused.expect_err("create"));
    let answer = http
        .call("POST", "/v1/games", Some(&guests[0].token), Some(body))
        .await;
    want.rest(&answer);

    // Nothing was stored or played.
    let after = view(&mut games, &game, seat, &token).await;
    assert_eq!(after.version, before.version);
    assert_eq!(account_count(&app).await, accounts_before);
    assert_eq!(game_count(&app, &guests[0]).await, 1);
    drop((games, accounts, http));
    app.stop().await;
}

/// The name the service knows `player` by.
async fn name_of(app: &GameService, player: &Player) -> String {
    let answer = app
        .accounts()
        .await
        .who_am_i(authed(WhoAmIRequest {}, &player.token))
        .await
        .expect("who am i");
    answer.into_inner().name
}

async fn names_are_trimmed_and_refuse_control_and_bidi_characters(db: &TestDb) {
    let app = spawn_game(db).await;
    let http = app.http();
    let mut accounts = app.accounts().await;

    // Spaces around a name are dropped, on every way in.
    let ann = app.guest("  Ann Berg \t").await;
    let (status, bo) = http
        .call(
            "POST",
            "/v1/accounts/guest",
            None,
            Some(json!({"name": "\nBo "})),
        )
        .await;
    let cy = app.account(" Cy ", AccountKind::Player).await;
    assert_eq!(name_of(&app, &ann).await, "Ann Berg");
    assert_eq!((status, &bo["name"]), (200, &json!("Bo")), "{bo}");
    assert_eq!(name_of(&app, &cy).await, "Cy");
    let longest = format!(" {} ", "é".repeat(40));
    let dee = app.guest(&longest).await;
    assert_eq!(name_of(&app, &dee).await, longest.trim());
    let before = account_count(&app).await;

    // Each refusal names the field and the rule.
    let too_long = "x".repeat(41);
    let cases = [
        ("Eve\u{202E}gnp.exe", "bidirectional"),
        ("\u{2066}Mallory", "bidirectional"),
        ("Tab\there", "control"),
        ("Bell\u{7}", "control"),
        ("   ", "1 to 40 characters"),
        (too_long.as_str(), "1 to 40 characters"),
    ];
    let want = Expected::invalid("name");
    for (name, rule) in cases {
        let guest = CreateGuestRequest {
            name: Some(name.into()),
            ..Default::default()
        };
        let refused = accounts.create_guest(guest).await.expect_err(name);
        want.grpc(&refused);
        assert!(refused.message().contains(rule), "{name:?}: {refused:?}");
        let body = json!({ "name": name });
        let answer = http
            .call("POST", "/v1/accounts/guest", None, Some(body))
            .await;
        want.rest(&answer);
        let description = &answer.1["fieldViolations"][0]["description"];
        assert!(
            description.as_str().is_some_and(|d| d.contains(rule)),
            "{name:?}: {}",
            answer.1
        );
        let account = CreateAccountRequest {
            name: name.into(),
            kind: AccountKind::Bot.into(),
            ..Default::default()
        };
        let refused = accounts
            .create_account(authed(account, OPERATOR_TOKEN))
            .await;
        want.grpc(&refused.expect_err(name));
    }
    assert_eq!(account_count(&app).await, before);
    drop((accounts, http));
    app.stop().await;
}

/// A refusal by the JSON layer naming `field`.
fn malformed(field: &'static str) -> Expected {
    Expected {
        field: Some(field),
        ..Expected::new(Code::InvalidArgument, "malformed_json")
    }
}

fn description(answer: &(u16, Value)) -> &str {
    answer.1["fieldViolations"][0]["description"]
        .as_str()
        .unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rest_bodies_of_the_wrong_type_or_kind_are_named() {
    let db = TestDb::sqlite();
    let app = spawn_game(&db).await;
    let http = app.http();
    let (guests, game, version) = app.game_with_guests(2).await;
    let token = guests[0].token.clone();
    let moves = format!("/v1/games/{game}/moves");

    // Numbers of the wrong sign or kind name their field.
    let players = http
        .call(
            "POST",
            "/v1/games",
            Some(&token),
            Some(json!({"players": -2})),
        )
        .await;
    malformed("players").rest(&players);
    assert!(
        description(&players).starts_with("expected an unsigned integer (32-bit), got -2"),
        "{}",
        players.1
    );
    let body = json!({"seat": 1.5, "moveId": "m", "action": {"pickup": true}});
    let seat = http.call("POST", &moves, Some(&token), Some(body)).await;
    malformed("seat").rest(&seat);
    assert!(description(&seat).contains("got 1.5"), "{}", seat.1);
    let body = json!({"moveId": "m", "expectedVersion": -1, "action": {"pickup": true}});
    let expected = http.call("POST", &moves, Some(&token), Some(body)).await;
    malformed("expected_version").rest(&expected);
    assert!(
        description(&expected).contains("unsigned"),
        "{}",
        expected.1
    );

    // A body not sent as JSON is 415, in the shape of every error.
    let body = r#"{"players": 2}"#;
    for content_type in [
        Some("text/plain"),
        None,
        Some("application/x-www-form-urlencoded"),
    ] {
        let (status, error) = http
            .raw("POST", "/v1/games", Some(&token), content_type, body)
            .await;

        assert_eq!(status, 415, "{content_type:?}: {error}");
        assert_eq!(error["code"], "INVALID_ARGUMENT", "{error}");
        assert_eq!(error["reason"], "unsupported_media_type", "{error}");
        assert_eq!(error["fieldViolations"], json!([]), "{error}");
        assert!(error["details"].as_array().is_some_and(|d| !d.is_empty()));
    }
    let charset = http
        .raw(
            "POST",
            "/v1/accounts/guest",
            None,
            Some("Application/JSON; charset=utf-8"),
            r#"{"name": "Flo"}"#,
        )
        .await;
    assert_eq!(charset.0, 200, "{}", charset.1);

    // Credentials first: without a token, or with an unknown one, bad
    // content is 401.
    let unauthenticated = Expected::new(Code::Unauthenticated, "unauthenticated");
    let bad = Some(json!({"players": -2}));
    unauthenticated.rest(&http.call("POST", "/v1/games", None, bad.clone()).await);
    unauthenticated.rest(
        &http
            .call("POST", "/v1/games", Some("skt_nobody"), bad)
            .await,
    );
    let plain = http
        .raw("POST", &moves, Some("skt_nobody"), Some("text/plain"), "m")
        .await;
    unauthenticated.rest(&plain);
    let query = format!("/v1/games/{game}/view?seat=two");
    unauthenticated.rest(&http.call("GET", &query, None, None).await);
    // Signing up needs no token: its content is judged at once.
    let guest = http
        .raw("POST", "/v1/accounts/guest", None, Some("text/plain"), "x")
        .await;
    assert_eq!(guest.0, 415, "{}", guest.1);

    // Nothing was created or played.
    assert_eq!(game_count(&app, &guests[0]).await, 1);
    let mut games = app.games().await;
    assert_eq!(view(&mut games, &game, 0, &token).await.version, version);
    drop((games, http));
    app.stop().await;
}

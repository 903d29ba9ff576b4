//! Every class of error the game service answers, over gRPC and over REST
//! on the same port: the same code, reason (`google.rpc.ErrorInfo` and the
//! `skit-error-code` trailer; the body's `reason`) and field at fault
//! (`google.rpc.BadRequest`; the body's `fieldViolations`), and metadata
//! where a client can act on it. Internal failures show none of their
//! cause.

use serde_json::{Value, json};
use skit_proto::v1::{
    Action, CreateGuestRequest, GetViewRequest, JoinGameRequest, PlayAction, action,
};
use skit_testkit::{
    Expected, GameService, Http, Player, TestDb, authed, seat_to_act, spawn_game, submit, view,
};
use tonic::Code;
use tonic_types::StatusExt;

fn play(cards: &[&str]) -> Action {
    Action {
        kind: Some(action::Kind::Play(PlayAction {
            cards: cards.iter().map(|c| (*c).to_owned()).collect(),
        })),
    }
}

fn rest_move(seat: u32, move_id: &str, version: u64, cards: &[&str]) -> Value {
    json!({
        "seat": seat, "moveId": move_id, "expectedVersion": version.to_string(),
        "action": {"play": {"cards": cards}},
    })
}

struct Table {
    app: GameService,
    http: Http,
    guests: Vec<Player>,
    game: String,
}

async fn table(db: &TestDb) -> Table {
    let app = spawn_game(db).await;
    let http = app.http();
    let (guests, game, _) = app.game_with_guests(2).await;
    Table {
        app,
        http,
        guests,
        game,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn who_may_ask_and_what_exists() {
    let db = TestDb::sqlite();
    let Table {
        app,
        http,
        guests,
        game,
    } = table(&db).await;
    let mut games = app.games().await;
    let get_view = |game_id: &str| GetViewRequest {
        game_id: game_id.into(),
        seat: Some(0),
        ..Default::default()
    };
    let view_path = format!("/v1/games/{game}/view?seat=0");
    let unknown = "00000000-0000-4000-8000-000000000000";

    // No token.
    let want = Expected::new(Code::Unauthenticated, "unauthenticated");
    want.grpc(&games.get_view(get_view(&game)).await.expect_err("no token"));
    want.rest(&http.call("GET", &view_path, None, None).await);

    // Another player's seat.
    let want = Expected::new(Code::PermissionDenied, "permission_denied");
    let request = authed(get_view(&game), &guests[1].token);
    want.grpc(&games.get_view(request).await.expect_err("seat 0"));
    let answer = http
        .call("GET", &view_path, Some(&guests[1].token), None)
        .await;
    want.rest(&answer);

    // An unknown game.
    let want = Expected::new(Code::NotFound, "not_found");
    let request = authed(get_view(unknown), &guests[0].token);
    want.grpc(&games.get_view(request).await.expect_err("unknown"));
    let path = format!("/v1/games/{unknown}/view");
    let answer = http.call("GET", &path, Some(&guests[0].token), None).await;
    want.rest(&answer);

    // A game id that is no id names the field.
    let want = Expected::invalid("game_id");
    let request = authed(get_view("g1"), &guests[0].token);
    want.grpc(&games.get_view(request).await.expect_err("bad id"));
    let answer = http
        .call("GET", "/v1/games/g1/view", Some(&guests[0].token), None)
        .await;
    want.rest(&answer);

    // A full table.
    let want = Expected::new(Code::FailedPrecondition, "failed_precondition");
    let third = app.guest("third").await;
    let join = JoinGameRequest {
        game_id: game.clone(),
        seat: None,
    };
    want.grpc(
        &games
            .join_game(authed(join, &third.token))
            .await
            .expect_err("full"),
    );
    let path = format!("/v1/games/{game}/join");
    want.rest(&http.call("POST", &path, Some(&third.token), None).await);
    drop((games, http));
    app.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refused_moves_say_why() {
    let db = TestDb::sqlite();
    let Table {
        app,
        http,
        guests,
        game,
    } = table(&db).await;
    let mut games = app.games().await;
    let (seat, before) = seat_to_act(&mut games, &game, &guests).await;
    let token = guests[seat as usize].token.clone();
    let path = format!("/v1/games/{game}/moves");
    let rest = |body: Value| http.call("POST", &path, Some(&token), Some(body));

    // A card text that is no card names the field.
    let want = Expected::invalid("action.play");
    let request = submit(&game, seat, &before, play(&["1X"]), "bad");
    let refused = games.submit_move(authed(request, &token)).await;
    want.grpc(&refused.expect_err("1X"));
    want.rest(&rest(rest_move(seat, "bad", before.version, &["1X"])).await);

    // A card the seat does not hold: the engine's rule.
    let not_held = ["2C", "3C", "4C", "5C", "6C"]
        .into_iter()
        .find(|c| !before.hand.iter().any(|h| h == c))
        .expect("a card not held");
    let want = Expected::new(Code::FailedPrecondition, "card_not_held");
    let request = submit(&game, seat, &before, play(&[not_held]), "rule");
    let refused = games.submit_move(authed(request, &token)).await;
    let refused = refused.expect_err("not held");
    want.grpc(&refused);
    assert!(refused.message().contains(not_held), "{refused:?}");
    let answer = rest(rest_move(seat, "rule", before.version, &[not_held])).await;
    want.rest(&answer);

    // A stale version: the current one is in the metadata.
    let stale = before.version + 7;
    let want = Expected::new(Code::Aborted, "stale_version");
    let mut request = submit(&game, seat, &before, play(&[not_held]), "stale");
    request.expected_version = stale;
    let refused = games.submit_move(authed(request, &token)).await;
    let refused = refused.expect_err("stale");
    want.grpc(&refused);
    let info = refused.get_details_error_info().expect("ErrorInfo");
    assert_eq!(info.metadata["current_version"], before.version.to_string());
    assert_eq!(info.metadata["expected_version"], stale.to_string());
    let answer = rest(rest_move(seat, "stale", stale, &[not_held])).await;
    want.rest(&answer);
    assert_eq!(
        answer.1["metadata"],
        json!({"current_version": before.version.to_string(), "expected_version": stale.to_string()})
    );

    // A read for a version the game does not have yet.
    let want = Expected::new(Code::FailedPrecondition, "version_ahead");
    let ahead = GetViewRequest {
        game_id: game.clone(),
        seat: Some(seat),
        min_version: Some(stale),
        ..Default::default()
    };
    let refused = games.get_view(authed(ahead, &token)).await;
    let refused = refused.expect_err("ahead");
    want.grpc(&refused);
    let info = refused.get_details_error_info().expect("ErrorInfo");
    assert_eq!(info.metadata["current_version"], before.version.to_string());
    assert_eq!(info.metadata["min_version"], stale.to_string());
    let view_path = format!("/v1/games/{game}/view?seat={seat}&minVersion={stale}");
    let answer = http.call("GET", &view_path, Some(&token), None).await;
    want.rest(&answer);
    assert_eq!(
        answer.1["metadata"]["current_version"],
        json!(before.version.to_string())
    );

    // A move id used before for another move.
    let legal = before.legal_actions[0].clone();
    let request = submit(&game, seat, &before, legal, "once");
    games
        .submit_move(authed(request, &token))
        .await
        .expect("a legal move");
    let want = Expected::new(Code::AlreadyExists, "move_id_reused");
    let request = submit(&game, seat, &before, play(&[not_held]), "once");
    want.grpc(
        &games
            .submit_move(authed(request, &token))
            .await
            .expect_err("reused"),
    );
    want.rest(&rest(rest_move(seat, "once", before.version, &[not_held])).await);

    // Nothing refused changed the game: one move was played.
    let after = view(&mut games, &game, seat, &token).await;
    assert_eq!(after.version, before.version + 1);
    drop((games, http));
    app.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn internal_failures_hide_their_cause() {
    let db = TestDb::sqlite();
    let app = spawn_game(&db).await;
    let http = app.http();
    app.guest("before").await;
    // The accounts table goes away under the running service.
    let path = db.sqlite_path().expect("sqlite");
    let mut conn = <sqlx::SqliteConnection as sqlx::Connection>::connect(&format!(
        "sqlite://{}",
        path.display()
    ))
    .await
    .expect("open the database");
    sqlx::query("ALTER TABLE accounts RENAME TO accounts_gone")
        .execute(&mut conn)
        .await
        .expect("rename");
    let want = Expected::new(Code::Internal, "internal");

    let grpc = app
        .accounts()
        .await
        .create_guest(CreateGuestRequest {
            name: Some("after".into()),
            request_id: String::new(),
        })
        .await
        .expect_err("no accounts table");
    let rest = http
        .call(
            "POST",
            "/v1/accounts/guest",
            None,
            Some(json!({"name": "after"})),
        )
        .await;

    want.grpc(&grpc);
    assert_eq!(grpc.message(), "internal error");
    want.rest(&rest);
    assert_eq!(rest.1["message"], "internal error");
    let text = format!("{:?} {}", grpc.get_error_details(), rest.1);
    assert!(!text.contains("accounts"), "{text}");
    assert!(!text.contains("table"), "{text}");
    drop(http);
    app.stop().await;
}

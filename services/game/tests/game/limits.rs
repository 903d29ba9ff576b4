//! The game service's limits as a client meets them: quotas on games
//! (counted in the database, on both), sign-up floods refused while
//! signed-in players play on, and fast honest play never limited.

use rand::SeedableRng;
use skit_proto::v1::{CreateGameRequest, CreateGuestRequest, JoinGameRequest};
use skit_testkit::TestDb;
use skit_testkit::*;
use tonic::Code;

on_both_databases!(
    open_games_past_the_quota_are_refused_and_nothing_is_created,
    games_per_hour_past_the_quota_are_refused,
);

/// A two-player game created by `player`, seated at seat 0.
fn own_game() -> CreateGameRequest {
    CreateGameRequest {
        players: 2,
        ..skitgubbe_for(&[])
    }
}

fn quota(status: &tonic::Status, name: &str, limit: &str) {
    Expected::new(Code::ResourceExhausted, "quota_exceeded").grpc(status);
    let info = tonic_types::StatusExt::get_details_error_info(status).expect("ErrorInfo");
    assert_eq!(info.metadata["quota"], name, "{status:?}");
    assert_eq!(info.metadata["limit"], limit, "{status:?}");
}

async fn open_games_past_the_quota_are_refused_and_nothing_is_created(db: &TestDb) {
    // Arrange
    let app = spawn_game_with(db, |c| c.quota_open_games = 2).await;
    let (ann, bo) = (app.guest("ann").await, app.guest("bo").await);
    let mut games = app.games().await;
    for _ in 0..2 {
        games
            .create_game(authed(own_game(), &ann.token))
            .await
            .expect("within the quota");
    }
    let bos_game = games
        .create_game(authed(own_game(), &bo.token))
        .await
        .expect("bo's game")
        .into_inner();

    // Act
    let created = games
        .create_game(authed(own_game(), &ann.token))
        .await
        .expect_err("a third open game");
    let joined = games
        .join_game(authed(
            JoinGameRequest {
                game_id: bos_game.game_id,
                ..Default::default()
            },
            &ann.token,
        ))
        .await
        .expect_err("a third open game by joining");
    let by_operator = games
        .create_game(authed(
            skitgubbe_for(&[ann.clone(), bo.clone()]),
            OPERATOR_TOKEN,
        ))
        .await;

    // Assert
    quota(&created, "open_games", "2");
    quota(&joined, "open_games", "2");
    assert!(
        by_operator.is_ok(),
        "the operator is exempt: {by_operator:?}"
    );
    assert_eq!(
        app.games_of(&ann).await,
        3,
        "only the operator's game was added"
    );
    app.stop().await;
}

async fn games_per_hour_past_the_quota_are_refused(db: &TestDb) {
    // Arrange: open games are no bound here, creations are.
    let app = spawn_game_with(db, |c| {
        c.quota_games_per_hour = 3;
        c.quota_open_games = 0;
    })
    .await;
    let ann = app.guest("ann").await;
    let mut games = app.games().await;
    for _ in 0..3 {
        games
            .create_game(authed(own_game(), &ann.token))
            .await
            .expect("within the quota");
    }

    // Act
    let refused = games
        .create_game(authed(own_game(), &ann.token))
        .await
        .expect_err("a fourth game within the hour");
    let rest = app
        .http()
        .call(
            "POST",
            "/v1/games",
            Some(&ann.token),
            Some(serde_json::json!({"players": 2, "rules": {"preset": "skitgubbe"}})),
        )
        .await;

    // Assert
    quota(&refused, "games_per_hour", "3");
    Expected::new(Code::ResourceExhausted, "quota_exceeded").rest(&rest);
    assert_eq!(rest.1["metadata"]["quota"], "games_per_hour", "{}", rest.1);
    assert_eq!(app.games_of(&ann).await, 3);
    app.stop().await;
}

#[tokio::test]
async fn a_sign_up_flood_is_refused_while_signed_in_players_play_on() {
    let db = TestDb::sqlite();
    let app = spawn_game(&db).await;
    let (guests, game, _) = app.game_with_guests(2).await;
    let mut accounts = app.accounts().await;
    let mut client = app.games().await;
    let mut rng = rand::rngs::StdRng::seed_from_u64(24);

    let mut refused = Vec::new();
    let mut moves = 0;
    for _ in 0..100 {
        if let Err(status) = accounts.create_guest(CreateGuestRequest::default()).await {
            refused.push(status);
        }
        if let Some(reply) =
            random_move(&mut client, &game, &guests, &mut rng, &mut |_, _| {}).await
        {
            reply.expect("a signed-in player's move");
            moves += 1;
        }
    }

    assert!(refused.len() >= 40, "{} sign-ups refused", refused.len());
    Expected::new(Code::ResourceExhausted, "rate_limited").grpc(&refused[0]);
    assert!(moves > 0);
    app.stop().await;
}

#[tokio::test]
async fn fast_honest_play_is_never_limited_at_the_defaults() {
    let db = TestDb::sqlite();
    let app = spawn_game(&db).await;
    let mut client = app.games().await;
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    let (players, _, _) = app.game_with_guests(3).await;

    let mut moves = 0;
    for _ in 0..4 {
        let (game, _) = app.game_for(&players).await;
        moves += play_out(&mut client, &game, &players, &mut rng, &mut |_, _| {}).await;
    }

    assert!(moves > 100, "{moves} moves");
    app.stop().await;
}

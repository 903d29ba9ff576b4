//! The game service's limits as a client meets them: quotas on games
//! (counted in the database, on both, holding under concurrent calls to
//! two instances), sign-up floods refused while signed-in players play on,
//! and fast honest play never limited.

use std::sync::Arc;

use futures_util::future::BoxFuture;
use rand::SeedableRng;
use skit_proto::v1::{CreateGameRequest, CreateGuestRequest, JoinGameRequest, WhoAmIRequest};
use skit_testkit::TestDb;
use skit_testkit::*;
use tokio::sync::Barrier;
use tonic::Code;

on_both_databases!(
    open_games_past_the_quota_are_refused_and_nothing_is_created,
    games_per_hour_past_the_quota_are_refused,
    open_games_hold_under_concurrent_creates_and_joins_on_two_instances,
    games_per_hour_hold_under_concurrent_creates_on_two_instances,
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

/// Two instances on `db` with `tweak`ed quotas and no rate limits (the
/// calls below come at once, from one credential); the second started
/// once the first serves, as a second instance is deployed.
pub(crate) async fn two_instances(
    db: &TestDb,
    tweak: fn(&mut skit_game::Config),
) -> [GameService; 2] {
    let config = move |c: &mut skit_game::Config| {
        c.limits.limits = false;
        tweak(c);
    };
    let mut apps = Vec::new();
    for _ in 0..2 {
        let app = spawn_game_with(db, config).await;
        app.accounts()
            .await
            .who_am_i(authed(WhoAmIRequest {}, OPERATOR_TOKEN))
            .await
            .expect("serving");
        apps.push(app);
    }
    apps.try_into().expect("two")
}

pub(crate) type Call = BoxFuture<'static, Result<(), tonic::Status>>;

/// Creates one of `ann`'s own games through `app`, on a connection of its
/// own, when awaited.
async fn create_call(app: &GameService, ann: &Player) -> Call {
    let mut client = app.games().await;
    let request = authed(own_game(), &ann.token);
    Box::pin(async move { client.create_game(request).await.map(|_| ()) })
}

/// Runs `calls` at once, each on a task of its own; the answers.
pub(crate) async fn at_once(calls: Vec<Call>) -> Vec<Result<(), tonic::Status>> {
    let start = Arc::new(Barrier::new(calls.len()));
    let tasks: Vec<_> = calls
        .into_iter()
        .map(|call| {
            let start = start.clone();
            tokio::spawn(async move {
                start.wait().await;
                call.await
            })
        })
        .collect();
    let mut answers = Vec::new();
    for task in tasks {
        answers.push(task.await.expect("a call"));
    }
    answers
}

/// How many `answers` succeeded; every other one is the `name` quota's
/// refusal.
fn granted(answers: &[Result<(), tonic::Status>], name: &str, limit: &str) -> usize {
    for refused in answers.iter().filter_map(|a| a.as_ref().err()) {
        quota(refused, name, limit);
    }
    answers.iter().filter(|a| a.is_ok()).count()
}

async fn open_games_hold_under_concurrent_creates_and_joins_on_two_instances(db: &TestDb) {
    // Arrange: games with open seats, made by the operator (exempt).
    let apps = two_instances(db, |c| c.quota_open_games = 10).await;
    let ann = apps[0].guest("ann").await;
    let mut calls = Vec::new();
    for i in 0..24 {
        let mut empty = own_game();
        empty.seats.clear();
        let game_id = apps[0]
            .games()
            .await
            .create_game(authed(empty, OPERATOR_TOKEN))
            .await
            .expect("an open game")
            .into_inner()
            .game_id;
        let mut client = apps[i % 2].games().await;
        let join = JoinGameRequest {
            game_id,
            ..Default::default()
        };
        let join = authed(join, &ann.token);
        calls.push(Box::pin(async move { client.join_game(join).await.map(|_| ()) }) as Call);
        calls.push(create_call(&apps[(i + 1) % 2], &ann).await);
    }

    // Act: 24 creates and 24 joins at once, through both instances.
    let answers = at_once(calls).await;

    // Assert
    assert_eq!(granted(&answers, "open_games", "10"), 10);
    assert_eq!(apps[1].games_of(&ann).await, 10);
    for app in apps {
        app.stop().await;
    }
}

async fn games_per_hour_hold_under_concurrent_creates_on_two_instances(db: &TestDb) {
    // Arrange
    let apps = two_instances(db, |c| {
        c.quota_games_per_hour = 10;
        c.quota_open_games = 0;
    })
    .await;
    let ann = apps[0].guest("ann").await;
    let mut calls = Vec::new();
    for i in 0..48 {
        calls.push(create_call(&apps[i % 2], &ann).await);
    }

    // Act
    let answers = at_once(calls).await;

    // Assert
    assert_eq!(granted(&answers, "games_per_hour", "10"), 10);
    assert_eq!(apps[1].games_of(&ann).await, 10);
    for app in apps {
        app.stop().await;
    }
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

//! CreateGame with a request id: a repeated request (a retry after a lost
//! answer, a matchmaker finishing a match after a crash) returns the game
//! created the first time, on both databases and under a race.

use skit_proto::v1::CreateGameRequest;
use skit_testkit::TestDb;
use skit_testkit::*;
use tonic::Code;

on_both_databases!(
    repeated_request_returns_first_game,
    concurrent_twins_create_one_game,
    request_ids_are_per_creator,
);

fn request(seats: &[&Player], request_id: &str) -> CreateGameRequest {
    let seats: Vec<Player> = seats.iter().map(|&g| g.clone()).collect();
    CreateGameRequest {
        request_id: request_id.into(),
        ..skitgubbe_for(&seats)
    }
}

async fn repeated_request_returns_first_game(db: &TestDb) {
    let app = spawn_game(db).await;
    let (ann, bo) = (app.guest("ann").await, app.guest("bo").await);
    let mut games = app.games().await;

    let first = games
        .create_game(authed(request(&[&ann, &bo], "match-1"), OPERATOR_TOKEN))
        .await
        .expect("first create")
        .into_inner();
    let again = games
        .create_game(authed(request(&[&ann, &bo], "match-1"), OPERATOR_TOKEN))
        .await
        .expect("repeated create")
        .into_inner();
    let other = games
        .create_game(authed(request(&[&ann, &bo], "match-2"), OPERATOR_TOKEN))
        .await
        .expect("another request id")
        .into_inner();
    let plain = games
        .create_game(authed(request(&[&ann, &bo], ""), OPERATOR_TOKEN))
        .await
        .expect("no request id");

    assert_eq!(again.game_id, first.game_id, "the first game again");
    assert_eq!(again.seats, first.seats);
    assert_eq!(again.shuffle_commitment, first.shuffle_commitment);
    assert_ne!(other.game_id, first.game_id, "a new id is a new game");
    assert_ne!(plain.into_inner().game_id, first.game_id);
    assert_eq!(app.games_of(&ann).await, 3, "three games, not four");

    let long = "x".repeat(129);
    let refused = games
        .create_game(authed(request(&[&ann, &bo], &long), OPERATOR_TOKEN))
        .await
        .expect_err("too long");
    assert_eq!(refused.code(), Code::InvalidArgument);
    assert!(refused.message().starts_with("request_id:"), "{refused:?}");
    drop(games);
    app.stop().await;
}

async fn concurrent_twins_create_one_game(db: &TestDb) {
    let app = spawn_game(db).await;
    let (ann, bo) = (app.guest("ann").await, app.guest("bo").await);

    let mut calls = tokio::task::JoinSet::new();
    for _ in 0..8 {
        let mut games = app.games().await;
        let req = request(&[&ann, &bo], "race");
        calls.spawn(async move {
            games
                .create_game(authed(req, OPERATOR_TOKEN))
                .await
                .map(|r| r.into_inner().game_id)
        });
    }
    let ids: Vec<String> = calls
        .join_all()
        .await
        .into_iter()
        .map(|r| r.expect("every twin is answered"))
        .collect();

    assert!(ids.iter().all(|id| *id == ids[0]), "one game: {ids:?}");
    assert_eq!(app.games_of(&ann).await, 1);
    app.stop().await;
}

async fn request_ids_are_per_creator(db: &TestDb) {
    let app = spawn_game(db).await;
    let (ann, bo) = (app.guest("ann").await, app.guest("bo").await);
    let mut games = app.games().await;

    let by_operator = games
        .create_game(authed(request(&[&ann, &bo], "same"), OPERATOR_TOKEN))
        .await
        .expect("operator's")
        .into_inner();
    // Ann seats only herself (only the operator seats others).
    let ann_alone = CreateGameRequest {
        seats: Vec::new(),
        ..request(&[&ann, &bo], "same")
    };
    let by_ann = games
        .create_game(authed(ann_alone, &ann.token))
        .await
        .expect("ann's")
        .into_inner();

    assert_ne!(by_operator.game_id, by_ann.game_id);
    drop(games);
    app.stop().await;
}

//! Read-your-writes across instances: two instances of the game service on
//! one PostgreSQL, as behind a round-robin load balancer. Every move is
//! acknowledged by one instance and the next read goes to the other, with
//! the version the client was told (`min_version`, `?minVersion=`): the
//! read always shows the move, never the game before it. A seat taken on
//! one instance can be used on the other at once.

use std::time::Duration;

use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use skit_proto::v1::game_service_client::GameServiceClient;
use skit_proto::v1::{
    CreateGameRequest, GetHistoryRequest, GetViewRequest, JoinGameRequest, Phase, SeatSpec, View,
    WatchGameRequest,
};
use skit_testkit::{GameService, Http, TestDb, authed, skitgubbe_for, spawn_game, submit};
use tonic::transport::Channel;

/// Seat `seat`'s view on `client`, at `known` or later.
async fn view_at(
    client: &mut GameServiceClient<Channel>,
    game: &str,
    seat: u32,
    token: &str,
    known: u64,
) -> View {
    let request = GetViewRequest {
        game_id: game.into(),
        seat: Some(seat),
        min_version: Some(known),
        ..Default::default()
    };
    client
        .get_view(authed(request, token))
        .await
        .unwrap_or_else(|e| panic!("seat {seat}'s view at {known} or later: {e}"))
        .into_inner()
}

/// The version of seat `seat`'s view over REST, at `known` or later.
async fn rest_version(http: &Http, game: &str, seat: u32, token: &str, known: u64) -> u64 {
    let path = format!("/v1/games/{game}/view?seat={seat}&minVersion={known}");
    let (status, body) = http.call("GET", &path, Some(token), None).await;
    assert_eq!(status, 200, "{body}");
    body["version"]
        .as_str()
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("a version in {body}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_read_on_another_instance_shows_the_acknowledged_move() {
    // Arrange: two instances on one database; a game of three.
    let db = TestDb::postgres().await;
    let instances: [GameService; 2] = [spawn_game(&db).await, spawn_game(&db).await];
    let (guests, game, created) = instances[0].game_with_guests(3).await;
    let mut clients = [instances[0].games().await, instances[1].games().await];
    let http = [instances[0].http(), instances[1].http()];
    let mut rng = StdRng::seed_from_u64(27);
    let mut known = created;
    let mut reads = 0;

    // Act: each move on one instance, every read after it on the other.
    for turn in 0usize.. {
        let reader = turn % 2;
        let mut choices = Vec::new();
        for (seat, player) in (0u32..).zip(&guests) {
            let v = view_at(&mut clients[reader], &game, seat, &player.token, known).await;
            // Assert: never older than the last acknowledged move.
            assert!(
                v.version >= known,
                "instance {reader} showed version {} after {known} was acknowledged",
                v.version
            );
            reads += 1;
            if !v.legal_actions.is_empty() {
                choices.push((seat, v));
            }
        }
        if choices.is_empty() {
            break;
        }
        let rest = rest_version(&http[reader], &game, 0, &guests[0].token, known).await;
        assert!(rest >= known, "REST showed {rest} after {known}");
        let (seat, v) = choices.choose(&mut rng).expect("a seat to act");
        let action = v.legal_actions.choose(&mut rng).expect("an action").clone();
        let writer = 1 - reader;
        let request = submit(&game, *seat, v, action, &format!("m{turn}"));
        let reply = clients[writer]
            .submit_move(authed(request, &guests[*seat as usize].token))
            .await
            .unwrap_or_else(|e| panic!("move {turn} on instance {writer}: {e}"))
            .into_inner();
        known = reply.version;
        assert!(turn < 3000, "the game did not end");
    }

    // The history and a new watch on either instance reach the end too.
    for (i, client) in clients.iter_mut().enumerate() {
        let history = client
            .get_history(authed(
                GetHistoryRequest {
                    game_id: game.clone(),
                    min_version: Some(known),
                    ..Default::default()
                },
                &guests[0].token,
            ))
            .await
            .unwrap_or_else(|e| panic!("history on instance {i}: {e}"))
            .into_inner();
        assert!(history.complete, "instance {i}'s history ends the game");
        let mut watch = client
            .watch_game(authed(
                WatchGameRequest {
                    game_id: game.clone(),
                    seat: Some(0),
                    min_version: Some(known),
                    ..Default::default()
                },
                &guests[0].token,
            ))
            .await
            .expect("watch")
            .into_inner();
        let first = tokio::time::timeout(Duration::from_secs(10), watch.message())
            .await
            .expect("a view in time")
            .expect("the stream")
            .expect("a view");
        assert_eq!(first.version, known, "instance {i}'s watch");
        assert_eq!(first.phase, Phase::Over as i32);
    }
    assert!(reads > 100, "only {reads} reads");
    drop((clients, http));
    for instance in instances {
        instance.stop().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_taken_on_one_instance_is_used_on_the_other_at_once() {
    // Arrange: ann opens a table on A with a seat for anyone.
    let db = TestDb::postgres().await;
    let a = spawn_game(&db).await;
    let b = spawn_game(&db).await;
    let ann = a.guest("ann").await;
    let bo = a.guest("bo").await;
    let mut on_a = a.games().await;
    let mut on_b = b.games().await;
    let table = CreateGameRequest {
        seats: vec![
            SeatSpec {
                account_id: Some(ann.id.clone()),
            },
            SeatSpec { account_id: None },
        ],
        ..skitgubbe_for(&[ann.clone(), bo.clone()])
    };
    let table = on_a
        .create_game(authed(table, &ann.token))
        .await
        .expect("a table")
        .into_inner();
    // B has the game in its cache before bo joins.
    let before = view_at(&mut on_b, &table.game_id, 0, &ann.token, table.version).await;

    // Act: bo joins on A, then reads and plays on B.
    let joined = on_a
        .join_game(authed(
            JoinGameRequest {
                game_id: table.game_id.clone(),
                seat: None,
            },
            &bo.token,
        ))
        .await
        .expect("bo joins")
        .into_inner();
    let seat = joined.seat;
    let request = GetViewRequest {
        game_id: table.game_id.clone(),
        seat: Some(seat),
        ..Default::default()
    };
    let seen = on_b.get_view(authed(request, &bo.token)).await;

    // Assert: B knows bo holds the seat without being told a version.
    let seen = seen.expect("bo's seat on B").into_inner();
    assert_eq!(seen.viewer_seat, Some(seat));
    assert!(seen.version >= before.version);
    drop((on_a, on_b));
    a.stop().await;
    b.stop().await;
}

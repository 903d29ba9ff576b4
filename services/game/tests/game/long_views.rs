//! A view longer than a WatchGame stream's encode buffer (2 KiB) reaches
//! a gRPC watcher whole: a spectator who opens late gets the whole history
//! in its first view, the same history GetView gives.

use std::time::Duration;

use prost::Message;
use rand::SeedableRng;
use rand::rngs::StdRng;
use skit_proto::v1::{GetViewRequest, Phase, View, WatchGameRequest};
use skit_testkit::{TestDb, authed, random_move, spawn_game};

/// Played until the spectator's whole view is at least this long.
const LONG: usize = 3 * 1024;

#[tokio::test]
async fn a_late_spectator_gets_a_long_history_whole() {
    let db = TestDb::sqlite();
    let app = spawn_game(&db).await;
    let mut client = app.games().await;
    let mut rng = StdRng::seed_from_u64(22);
    let (guests, game, _) = app.game_with_guests(3).await;
    let token = &guests[0].token;
    let spectator = || GetViewRequest {
        game_id: game.clone(),
        spectator: true,
        ..Default::default()
    };

    // Arrange: moves until the spectator's view is long.
    let expected: View = loop {
        let view = client
            .get_view(authed(spectator(), token))
            .await
            .expect("the spectator's view")
            .into_inner();
        if view.encoded_len() >= LONG || view.phase == Phase::Over as i32 {
            break view;
        }
        random_move(&mut client, &game, &guests, &mut rng, &mut |_, _| {})
            .await
            .expect("running")
            .expect("legal");
    };
    assert!(
        expected.encoded_len() >= LONG,
        "the game ended with a view of {} bytes",
        expected.encoded_len()
    );

    // Act: a spectator opens a stream now.
    let request = WatchGameRequest {
        game_id: game.clone(),
        spectator: true,
        ..Default::default()
    };
    let mut stream = client
        .watch_game(authed(request, token))
        .await
        .expect("watch over gRPC")
        .into_inner();
    let first = tokio::time::timeout(Duration::from_secs(10), stream.message())
        .await
        .expect("a view within 10 s")
        .expect("the stream")
        .expect("not ended");

    // Assert: the whole history, as GetView has it.
    assert_eq!(first.version, expected.version);
    assert_eq!(first.history.first().map(|e| e.version), Some(0));
    assert_eq!(first.history, expected.history);
}

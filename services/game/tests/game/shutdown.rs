//! Graceful shutdown: when an instance is told to stop (SIGTERM in the
//! binary), its WatchGame streams over gRPC and SSE end and its long polls
//! answer at once, so their clients reconnect to another instance; a move
//! acknowledged before is kept; and a call that never finishes (a request
//! whose body never arrives) holds the stop up only for the shutdown
//! grace.

use std::time::Duration;

use skit_proto::v1::{GetViewRequest, WatchGameRequest};
use skit_testkit::{TestDb, authed, seat_to_act, spawn_game, spawn_game_with, submit, view};
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;

/// Long enough for anything this test waits for to happen by itself; far
/// shorter than the long poll (10 s cap) and the request timeout (70 s).
const PROMPTLY: Duration = Duration::from_secs(5);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stopping_ends_streams_and_long_polls_keeps_moves_and_is_bounded() {
    // Arrange: a game with a move acknowledged, a watcher over gRPC and one
    // over SSE, a long poll for a version not yet made, and a request
    // whose body never comes.
    let db = TestDb::sqlite();
    let app = spawn_game_with(&db, |config| config.limits.shutdown_grace_ms = 300).await;
    let (guests, game, _) = app.game_with_guests(3).await;
    let mut client = app.games().await;
    let (seat, v) = seat_to_act(&mut client, &game, &guests).await;
    let token = guests[seat as usize].token.clone();
    let moved = client
        .submit_move(authed(
            submit(&game, seat, &v, v.legal_actions[0].clone(), "kept"),
            &token,
        ))
        .await
        .expect("a move")
        .into_inner();

    let mut watch = client
        .watch_game(authed(
            WatchGameRequest {
                game_id: game.clone(),
                spectator: true,
                ..Default::default()
            },
            &token,
        ))
        .await
        .expect("watch")
        .into_inner();
    let first = watch.message().await.expect("stream").expect("a view");
    assert_eq!(first.version, moved.version);
    let mut sse = reqwest::Client::new()
        .get(format!(
            "{}/v1/games/{game}/watch?spectator=true",
            app.url()
        ))
        .bearer_auth(&token)
        .send()
        .await
        .expect("watch over SSE");
    assert_eq!(sse.status(), 200);
    let poll = {
        let mut client = client.clone();
        let request = GetViewRequest {
            game_id: game.clone(),
            spectator: true,
            wait_for_version_after: Some(moved.version),
            timeout_ms: 60_000,
            ..Default::default()
        };
        let token = token.clone();
        tokio::spawn(async move { client.get_view(authed(request, &token)).await })
    };
    let mut stuck = TcpStream::connect(app.addr).await.expect("connect");
    let head = format!(
        "POST /v1/games/{game}/moves HTTP/1.1\r\nhost: test\r\nauthorization: Bearer {token}\r\n\
         content-type: application/json\r\ncontent-length: 1000\r\n\r\n{{"
    );
    stuck
        .write_all(head.as_bytes())
        .await
        .expect("a request begun");
    tokio::time::sleep(Duration::from_millis(200)).await;

    // Act
    let stopping = tokio::spawn(app.stop());

    // Assert: the gRPC stream ends cleanly, the SSE body ends, the long
    // poll answers with the game as it is, and the service stops.
    let ended = tokio::time::timeout(PROMPTLY, watch.message())
        .await
        .expect("the gRPC stream ends at once");
    assert!(matches!(ended, Ok(None)), "{ended:?}");
    let sse_ended = tokio::time::timeout(PROMPTLY, async {
        while let Some(_chunk) = sse.chunk().await.expect("the SSE body") {}
    })
    .await;
    assert!(sse_ended.is_ok(), "the SSE stream ends at once");
    let polled = tokio::time::timeout(PROMPTLY, poll)
        .await
        .expect("the long poll answers at once")
        .expect("join")
        .expect("the long poll's answer")
        .into_inner();
    assert_eq!(polled.version, moved.version);
    drop((client, watch));
    tokio::time::timeout(PROMPTLY, stopping)
        .await
        .expect("stopped within the grace, the stuck request notwithstanding")
        .expect("the service stopped cleanly");
    drop(stuck);

    // The acknowledged move is there after a restart.
    let again = spawn_game(&db).await;
    let mut client = again.games().await;
    let after = view(&mut client, &game, seat, &token).await;
    assert_eq!(after.version, moved.version);
    drop(client);
    again.stop().await;
}

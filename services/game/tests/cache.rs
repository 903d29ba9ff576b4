//! The live game cache lets idle games go: a game nobody asks for or
//! watches leaves it (the `skit_live_games` gauge falls), a watched game
//! stays, and an evicted game's next use replays it from the log, so play
//! goes on where it was. A binary of its own, with one test: the gauge
//! counts every service in the process, so another test's games would
//! move it.

use std::time::Duration;

use rand::SeedableRng;
use rand::rngs::StdRng;
use skit_proto::v1::WatchGameRequest;
use skit_testkit::Http;
use skit_testkit::{authed, play_out, random_move, spawn_game_with, view};

/// The cache gauge as `/metrics` shows it (absent before any game loaded).
async fn cached_games(addr: std::net::SocketAddr) -> f64 {
    let http = Http::new(format!("http://{addr}"));
    let (_, text) = http.text("GET", "/metrics", None, None).await;
    text.lines()
        .find_map(|line| line.strip_prefix("skit_live_games "))
        .map_or(0.0, |value| value.trim().parse().expect("a number"))
}

/// Waits (up to 10 s) for the gauge to read `want`.
async fn until_cached(addr: std::net::SocketAddr, want: f64) {
    for _ in 0..200 {
        if cached_games(addr).await == want {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!(
        "the cache holds {} games, expected {want}",
        cached_games(addr).await
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_games_leave_the_cache_and_come_back_from_the_log() {
    for db in [
        skit_testkit::TestDb::sqlite(),
        skit_testkit::TestDb::postgres().await,
    ] {
        idle_games_leave(&db).await;
    }
}

async fn idle_games_leave(db: &skit_testkit::TestDb) {
    let app = spawn_game_with(db, |config| config.cache_idle_ms = 1000).await;
    let base = cached_games(app.addr).await;
    let mut client = app.games().await;
    let mut rng = StdRng::seed_from_u64(7);

    let (guests, watched, _) = app.game_with_guests(3).await;
    let (others, idle, _) = app.game_with_guests(3).await;
    for _ in 0..5 {
        random_move(&mut client, &watched, &guests, &mut rng, &mut |_, _| {})
            .await
            .expect("running")
            .expect("legal");
        random_move(&mut client, &idle, &others, &mut rng, &mut |_, _| {})
            .await
            .expect("running")
            .expect("legal");
    }
    assert_eq!(cached_games(app.addr).await, base + 2.0);
    let before = view(&mut client, &watched, 0, &guests[0].token).await;

    // A watched game stays; the other goes once idle.
    let watch = WatchGameRequest {
        game_id: watched.clone(),
        seat: Some(0),
        ..Default::default()
    };
    let mut stream = client
        .watch_game(authed(watch, &guests[0].token))
        .await
        .expect("watch")
        .into_inner();
    let first = stream.message().await.expect("stream").expect("a view");
    assert_eq!(first.version, before.version);
    until_cached(app.addr, base + 1.0).await;
    tokio::time::sleep(Duration::from_millis(2500)).await;
    assert_eq!(
        cached_games(app.addr).await,
        base + 1.0,
        "a watched game must stay cached"
    );

    // Unwatched, it goes too.
    drop(stream);
    until_cached(app.addr, base).await;

    // Its next use replays it: the same view, and play goes on to the end.
    let after = view(&mut client, &watched, 0, &guests[0].token).await;
    assert_eq!(after.version, before.version);
    assert_eq!(after.hand, before.hand);
    assert_eq!(after.legal_actions, before.legal_actions);
    assert_eq!(cached_games(app.addr).await, base + 1.0);
    play_out(&mut client, &watched, &guests, &mut rng, &mut |_, _| {}).await;
    play_out(&mut client, &idle, &others, &mut rng, &mut |_, _| {}).await;
    let over = view(&mut client, &idle, 0, &others[0].token).await;
    assert_eq!(over.phase, skit_proto::v1::Phase::Over as i32);

    drop(client);
    app.stop().await;
}

//! How long a move accepted by one instance takes to reach a `WatchGame`
//! stream on another instance sharing the same PostgreSQL database
//! (LISTEN/NOTIFY). Prints the delay from the mover's acknowledgement to the
//! watcher's view, over one game's moves. A measurement, not a test:
//!
//! ```sh
//! cargo run --release -p skit-game --example propagation    # PostgreSQL on 127.0.0.1:5432 or DATABASE_URL
//! ```

use std::time::{Duration, Instant};

use skit_proto::v1::WatchGameRequest;
use skit_testkit::{TestDb, authed, spawn_game, submit, view};

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let db = TestDb::postgres().await;
    let (a, b) = (spawn_game(&db).await, spawn_game(&db).await);
    let (guests, game, _) = a.game_with_guests(3).await;
    let (mut on_a, mut on_b) = (a.games().await, b.games().await);
    let watch = WatchGameRequest {
        game_id: game.clone(),
        seat: Some(0),
        ..Default::default()
    };
    let mut stream = on_b
        .watch_game(authed(watch, &guests[0].token))
        .await
        .expect("watch on B")
        .into_inner();
    let mut delays = Vec::new();
    'game: for n in 0..200 {
        let mut mover = None;
        for (seat, guest) in guests.iter().enumerate() {
            let v = view(&mut on_a, &game, seat as u32, &guest.token).await;
            if v.phase == skit_proto::v1::Phase::Over as i32 {
                break 'game;
            }
            if let Some(action) = v.legal_actions.first().cloned() {
                mover = Some((seat, v, action));
                break;
            }
        }
        let Some((seat, v, action)) = mover else {
            break;
        };
        let request = submit(&game, seat as u32, &v, action, &format!("p{n}"));
        let sent = Instant::now();
        let moved = on_a
            .submit_move(authed(request, &guests[seat].token))
            .await
            .expect("move on A")
            .into_inner();
        let acked = Instant::now();
        loop {
            let next = tokio::time::timeout(Duration::from_secs(5), stream.message()).await;
            match next {
                Ok(Ok(Some(seen))) if seen.version >= moved.version => break,
                Ok(Ok(Some(_))) => continue,
                other => panic!("the watch on B stopped: {other:?}"),
            }
        }
        delays.push((acked.elapsed(), sent.elapsed(), acked - sent));
    }
    let report = |what: &str, mut list: Vec<Duration>| {
        list.sort();
        let pick = |q: f64| list[((list.len() - 1) as f64 * q) as usize];
        println!(
            "{what} ({} moves): p50 {:?}, p90 {:?}, p99 {:?}, max {:?}",
            list.len(),
            pick(0.5),
            pick(0.9),
            pick(0.99),
            list[list.len() - 1]
        );
    };
    report(
        "A's acknowledgement to B's WatchGame view",
        delays.iter().map(|d| d.0).collect(),
    );
    report(
        "move sent to A until B's WatchGame view",
        delays.iter().map(|d| d.1).collect(),
    );
    report(
        "move sent to A until A's acknowledgement",
        delays.iter().map(|d| d.2).collect(),
    );
}

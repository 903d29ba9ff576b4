//! WatchGame fans out: every spectator of a game, over gRPC or Server-Sent
//! Events, gets each new version, and that version's view is built once
//! and encoded once per format for all of them. A binary of its own, with
//! one test: the counters it reads count every service in the process.

use std::time::Duration;

use rand::SeedableRng;
use rand::rngs::StdRng;
use skit_proto::v1::{EventKind, View, WatchGameRequest};
use skit_testkit::{Http, TestDb, authed, random_move, spawn_game};
use tonic::Streaming;

/// A spectator over Server-Sent Events, reading the event ids (versions).
struct SseSpectator {
    response: reqwest::Response,
    text: String,
}

impl SseSpectator {
    async fn open(url: &str, game: &str, token: &str) -> Self {
        let response = reqwest::Client::new()
            .get(format!("{url}/v1/games/{game}/watch?spectator=true"))
            .bearer_auth(token)
            .send()
            .await
            .expect("watch over SSE");
        assert_eq!(response.status(), 200);
        Self {
            response,
            text: String::new(),
        }
    }

    /// The next event's id.
    async fn next_version(&mut self) -> u64 {
        loop {
            if let Some(end) = self.text.find("\n\n") {
                let event: String = self.text.drain(..end + 2).collect();
                if let Some(id) = event.lines().find_map(|l| l.strip_prefix("id:")) {
                    return id.trim().parse().expect("a version");
                }
                continue;
            }
            let chunk = tokio::time::timeout(Duration::from_secs(10), self.response.chunk())
                .await
                .expect("an event within 10 s")
                .expect("the stream")
                .expect("not ended");
            self.text
                .push_str(std::str::from_utf8(&chunk).expect("UTF-8"));
        }
    }
}

async fn next_view(stream: &mut Streaming<View>) -> View {
    tokio::time::timeout(Duration::from_secs(10), stream.message())
        .await
        .expect("a view within 10 s")
        .expect("the stream")
        .expect("not ended")
}

/// The shared views built so far, from `/metrics`.
async fn shared_views_built(addr: std::net::SocketAddr) -> f64 {
    let http = Http::new(format!("http://{addr}"));
    let (_, text) = http.text("GET", "/metrics", None, None).await;
    text.lines()
        .find_map(|l| l.strip_prefix("skit_watch_views_built_total{shared=\"true\"} "))
        .map_or(0.0, |v| v.trim().parse().expect("a number"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spectators_share_one_view_and_one_encoding_per_version() {
    let db = TestDb::sqlite();
    let app = spawn_game(&db).await;
    let mut client = app.games().await;
    let mut rng = StdRng::seed_from_u64(28);
    let (guests, game, version) = app.game_with_guests(3).await;
    let token = &guests[0].token;

    let mut grpc = Vec::new();
    for _ in 0..6 {
        let request = WatchGameRequest {
            game_id: game.clone(),
            spectator: true,
            ..Default::default()
        };
        let mut stream = app
            .games()
            .await
            .watch_game(authed(request, token))
            .await
            .expect("watch over gRPC")
            .into_inner();
        // Each stream's first view is its own: the whole history so far.
        let first = next_view(&mut stream).await;
        assert_eq!(first.version, version);
        assert!(first.history.first().is_some_and(|e| e.version == 0));
        grpc.push(stream);
    }
    let mut sse = Vec::new();
    for _ in 0..4 {
        let mut spectator = SseSpectator::open(&app.url(), &game, token).await;
        assert_eq!(spectator.next_version().await, version);
        sse.push(spectator);
    }

    let encodings = skit_gateway::shared::encodings();
    let built = shared_views_built(app.addr).await;
    let mut before = version;
    let moves = 4;
    for _ in 0..moves {
        let moved = random_move(&mut client, &game, &guests, &mut rng, &mut |_, _| {})
            .await
            .expect("running")
            .expect("legal");
        for stream in &mut grpc {
            let view = next_view(stream).await;
            assert_eq!(view.version, moved.version);
            // The history since the last view, and nothing of a seat's own.
            assert!(!view.history.is_empty());
            assert!(view.history.iter().all(|e| e.version > before));
            assert!(
                view.history
                    .iter()
                    .any(|e| e.kind != EventKind::Shuffle as i32)
            );
            assert!(view.hand.is_empty() && view.viewer_seat.is_none());
        }
        for spectator in &mut sse {
            assert_eq!(spectator.next_version().await, moved.version);
        }
        before = moved.version;
    }

    let (proto, json) = skit_gateway::shared::encodings();
    assert_eq!(
        (proto - encodings.0, json - encodings.1),
        (moves, moves),
        "each version encoded once for gRPC and once for JSON, for 10 spectators"
    );
    assert_eq!(
        shared_views_built(app.addr).await - built,
        moves as f64,
        "each version's spectator view built once"
    );

    drop((grpc, sse, client));
    app.stop().await;
}

//! A killed service loses no acknowledged move and applies none twice: the
//! real `skit-game` binary plays several games at once, is killed with
//! SIGKILL mid-play (no shutdown, group commits in flight), and is started
//! again on the same database. Every acknowledged move is found at the
//! version it was acknowledged with, a move whose answer was lost is
//! applied at most once however often it is resent, and the games play on
//! to their end.

use std::net::{SocketAddr, TcpListener};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;
use skit_proto::v1::SubmitMoveRequest;
use skit_proto::v1::game_service_client::GameServiceClient;
use skit_testkit::{Player, TestDb, authed, on_both_databases, play_out, submit};
use tonic::transport::Channel;

on_both_databases!(acknowledged_moves_survive_a_kill);

const GAMES: usize = 6;
/// Acknowledged moves (over all games) before the kill.
const MOVES_BEFORE_KILL: usize = 120;

/// The `skit-game` binary serving on a free port.
struct Process {
    child: Child,
    url: String,
}

impl Process {
    async fn start(database_url: &str) -> Process {
        let addr: SocketAddr = {
            let probe = TcpListener::bind("127.0.0.1:0").expect("bind a free port");
            probe.local_addr().expect("addr")
        };
        let child = Command::new(env!("CARGO_BIN_EXE_skit-game"))
            .env("DATABASE_URL", database_url)
            .env("SKIT_ADDR", addr.to_string())
            .env("SKIT_OPERATOR_TOKEN", skit_testkit::OPERATOR_TOKEN)
            .env("RUST_LOG", "error")
            .stdout(Stdio::null())
            .spawn()
            .expect("start skit-game");
        let process = Process {
            child,
            url: format!("http://{addr}"),
        };
        for _ in 0..300 {
            if GameServiceClient::connect(process.url.clone())
                .await
                .is_ok()
            {
                return process;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("skit-game did not start serving on {addr}");
    }

    async fn games(&self) -> GameServiceClient<Channel> {
        GameServiceClient::connect(self.url.clone())
            .await
            .expect("connect")
    }

    /// SIGKILL: no graceful stop, nothing flushed on the way out.
    fn kill(mut self) {
        self.child.kill().expect("kill skit-game");
        self.child.wait().expect("reap skit-game");
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What one game's player saw before the kill.
#[derive(Default)]
struct Played {
    /// Requests answered, with the version of each answer.
    acknowledged: Vec<(SubmitMoveRequest, u64)>,
    /// The request whose answer never came (sent as the service died).
    in_doubt: Option<SubmitMoveRequest>,
}

async fn acknowledged_moves_survive_a_kill(db: &TestDb) {
    // Arrange: several games in play on the real binary.
    let service = Process::start(db.url()).await;
    let guests = guests(&service, 3).await;
    let mut games = Vec::new();
    for _ in 0..GAMES {
        games.push(create_game(&service, &guests).await);
    }

    // Act: play all games at once and kill the service mid-play.
    let acknowledged = Arc::new(AtomicUsize::new(0));
    let killed = Arc::new(AtomicBool::new(false));
    let mut players = Vec::new();
    for (i, game) in games.iter().enumerate() {
        let client = service.games().await;
        players.push(tokio::spawn(play_until_cut_off(
            client,
            game.clone(),
            guests.clone(),
            i as u64,
            acknowledged.clone(),
            killed.clone(),
        )));
    }
    while acknowledged.load(Ordering::Relaxed) < MOVES_BEFORE_KILL {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    killed.store(true, Ordering::Relaxed);
    service.kill();
    let mut played = Vec::new();
    for player in players {
        played.push(player.await.expect("player task"));
    }

    // Assert: after a restart, every acknowledged move is there, once.
    let service = Process::start(db.url()).await;
    let mut client = service.games().await;
    for (game, played) in games.iter().zip(&played) {
        assert!(!played.acknowledged.is_empty(), "game {game} made moves");
        for (request, version) in &played.acknowledged {
            let token = &guests[request.seat as usize].token;
            let again = client
                .submit_move(authed(request.clone(), token))
                .await
                .unwrap_or_else(|e| panic!("acknowledged move {} lost: {e}", request.move_id))
                .into_inner();
            assert_eq!(
                again.version, *version,
                "move {} of game {game} is found where it was acknowledged",
                request.move_id
            );
        }
        let last_acknowledged = played.acknowledged.last().map_or(0, |(_, v)| *v);
        let before = version(&mut client, game, &guests).await;
        let Some(request) = &played.in_doubt else {
            assert_eq!(
                before, last_acknowledged,
                "game {game} is where it was left"
            );
            continue;
        };
        let token = &guests[request.seat as usize].token;
        let mut answers = Vec::new();
        for _ in 0..2 {
            let reply = client.submit_move(authed(request.clone(), token)).await;
            let reply = reply.unwrap_or_else(|e| {
                panic!("a move on the version it was made for is refused: {e}")
            });
            answers.push(reply.into_inner().version);
        }
        assert_eq!(answers[0], answers[1], "a resent move is applied once");
        if before == last_acknowledged {
            assert!(answers[0] > before, "the move was not stored, so now it is");
        } else {
            assert_eq!(answers[0], before, "the move was stored before the kill");
        }
        assert_eq!(version(&mut client, game, &guests).await, answers[0]);
    }
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for game in &games {
        play_out(&mut client, game, &guests, &mut rng, &mut |_, _| {}).await;
    }
}

/// Random legal moves on one game until the service stops answering.
async fn play_until_cut_off(
    mut client: GameServiceClient<Channel>,
    game: String,
    guests: Vec<Player>,
    seed: u64,
    acknowledged: Arc<AtomicUsize>,
    killed: Arc<AtomicBool>,
) -> Played {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut played = Played::default();
    loop {
        let Some((seat, view)) = seat_with_legal_actions(&mut client, &game, &guests).await else {
            assert!(
                killed.load(Ordering::Relaxed),
                "a view failed before the kill"
            );
            return played;
        };
        let action = view.legal_actions.choose(&mut rng).expect("legal").clone();
        let move_id = format!("g{seed}-v{}", view.version);
        let request = submit(&game, seat, &view, action, &move_id);
        let token = &guests[seat as usize].token;
        match client.submit_move(authed(request.clone(), token)).await {
            Ok(reply) => {
                played
                    .acknowledged
                    .push((request, reply.into_inner().version));
                acknowledged.fetch_add(1, Ordering::Relaxed);
            }
            // Whatever the error, the service died with the request in
            // flight: it may or may not have been stored.
            Err(_) if killed.load(Ordering::Relaxed) => {
                played.in_doubt = Some(request);
                return played;
            }
            Err(status) => panic!("move refused before the kill: {status}"),
        }
    }
}

/// The game's version, as seat 0 sees it.
async fn version(client: &mut GameServiceClient<Channel>, game: &str, guests: &[Player]) -> u64 {
    skit_testkit::view(client, game, 0, &guests[0].token)
        .await
        .version
}

/// A seat with legal actions and its view; `None` once the service is gone
/// (a finished game would fail here too: the test kills long before that).
async fn seat_with_legal_actions(
    client: &mut GameServiceClient<Channel>,
    game: &str,
    guests: &[Player],
) -> Option<(u32, skit_proto::v1::View)> {
    for (seat, guest) in guests.iter().enumerate() {
        let req = skit_proto::v1::GetViewRequest {
            game_id: game.into(),
            seat: Some(seat as u32),
            ..Default::default()
        };
        let view = client.get_view(authed(req, &guest.token)).await.ok()?;
        let view = view.into_inner();
        assert_ne!(
            view.phase,
            skit_proto::v1::Phase::Over as i32,
            "a game ended before the kill; raise the game count or lower MOVES_BEFORE_KILL"
        );
        if !view.legal_actions.is_empty() {
            return Some((seat as u32, view));
        }
    }
    panic!("nobody may act in game {game}");
}

async fn guests(service: &Process, n: usize) -> Vec<Player> {
    let mut guests = Vec::new();
    for i in 0..n {
        guests.push(skit_testkit::guest_at(&service.url, &format!("p{i}")).await);
    }
    guests
}

/// The guests' game, created by the operator (who alone seats others).
async fn create_game(service: &Process, guests: &[Player]) -> String {
    let req = skit_testkit::skitgubbe_for(guests);
    service
        .games()
        .await
        .create_game(authed(req, skit_testkit::OPERATOR_TOKEN))
        .await
        .expect("create")
        .into_inner()
        .game_id
}

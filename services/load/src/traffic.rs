//! Other traffic beside the watched game: games played move after move,
//! each a GetView of the seat to act and a SubmitMove, with their
//! latencies, so `skit-load watch` shows what watchers cost everyone else.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;
use skit_api::authed;
use skit_proto::v1::game_service_client::GameServiceClient;
use skit_proto::v1::{GetViewRequest, Phase, SubmitMoveRequest};
use tonic::transport::Channel;

use crate::lean::LeanClient;
use crate::report::Latencies;
use crate::target::{Seats, create_game};

/// What a stretch of other traffic did.
#[derive(Debug, Default)]
pub struct Traffic {
    pub latencies: Latencies,
    pub moves: u64,
    pub errors: u64,
    pub elapsed: Duration,
}

/// Plays `games` games at once on `channels` until `stop` is set (a game
/// that ends is followed by a new one).
pub async fn run(
    channels: &[Channel],
    seats: &Seats,
    games: usize,
    stop: Arc<AtomicBool>,
    seed: u64,
) -> Traffic {
    let started = Instant::now();
    let mut tasks = tokio::task::JoinSet::new();
    for g in 0..games {
        let channel = channels[g % channels.len()].clone();
        let (seats, stop) = (seats.clone(), stop.clone());
        let seed = seed.wrapping_mul(1000).wrapping_add(g as u64);
        tasks.spawn(async move { player(channel, &seats, &stop, seed).await });
    }
    let mut total = Traffic::default();
    for part in tasks.join_all().await {
        total.latencies.merge(&part.latencies);
        total.moves += part.moves;
        total.errors += part.errors;
    }
    total.elapsed = started.elapsed();
    total
}

/// Plays `moves` moves in each of `games` (fewer where one ends), with
/// `concurrency` games under way at once.
pub async fn moves(
    channels: &[Channel],
    seats: &Seats,
    games: Vec<(String, u64)>,
    moves: usize,
    concurrency: usize,
) -> Traffic {
    let queue = Arc::new(std::sync::Mutex::new(games));
    let mut tasks = tokio::task::JoinSet::new();
    for w in 0..concurrency.max(1) {
        let mut lean = LeanClient::new(channels[w % channels.len()].clone());
        let (queue, seats) = (queue.clone(), seats.clone());
        tasks.spawn(async move {
            let mut rng = ChaCha8Rng::seed_from_u64(w as u64);
            let mut traffic = Traffic::default();
            let stop = AtomicBool::new(false);
            loop {
                let next = queue.lock().unwrap_or_else(|e| e.into_inner()).pop();
                let Some((game_id, version)) = next else {
                    break;
                };
                let game = (game_id, version, moves);
                if let Err(status) =
                    steps(&mut lean, game, &seats, &stop, &mut rng, &mut traffic).await
                {
                    traffic.errors += 1;
                    eprintln!("error: {} {}", status.code(), status.message());
                }
            }
            traffic
        });
    }
    let mut total = Traffic::default();
    for part in tasks.join_all().await {
        total.moves += part.moves;
        total.errors += part.errors;
    }
    total
}

async fn player(channel: Channel, seats: &Seats, stop: &AtomicBool, seed: u64) -> Traffic {
    let mut client = GameServiceClient::new(channel.clone());
    let mut lean = LeanClient::new(channel);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut traffic = Traffic::default();
    while !stop.load(Ordering::Relaxed) {
        let played = play(&mut client, &mut lean, seats, stop, &mut rng, &mut traffic).await;
        if let Err(status) = played {
            traffic.errors += 1;
            eprintln!("other traffic: {} {}", status.code(), status.message());
        }
    }
    traffic
}

/// A new game, played until it ends or `stop` is set.
async fn play(
    client: &mut GameServiceClient<Channel>,
    lean: &mut LeanClient,
    seats: &Seats,
    stop: &AtomicBool,
    rng: &mut ChaCha8Rng,
    traffic: &mut Traffic,
) -> Result<(), tonic::Status> {
    let (game_id, version) = create_game(client, seats, "skitgubbe").await?;
    let game = (game_id, version, usize::MAX);
    steps(lean, game, seats, stop, rng, traffic).await
}

/// Plays up to `moves` moves of game `(id, version, moves)`.
async fn steps(
    lean: &mut LeanClient,
    (game_id, mut version, moves): (String, u64, usize),
    seats: &Seats,
    stop: &AtomicBool,
    rng: &mut ChaCha8Rng,
    traffic: &mut Traffic,
) -> Result<(), tonic::Status> {
    let mut position = 0usize;
    while position < moves && !stop.load(Ordering::Relaxed) {
        // The seat to act: the first whose view lists an action.
        let mut chosen = None;
        for (seat, (_, token)) in seats.iter().enumerate() {
            let req = GetViewRequest {
                game_id: game_id.clone(),
                seat: Some(seat as u32),
                history_after: Some(version),
                ..Default::default()
            };
            let sent = Instant::now();
            let view = lean.get_view(authed(req, token)?).await?;
            traffic.latencies.record_view(sent.elapsed());
            if view.phase == Phase::Over as i32 {
                return Ok(());
            }
            version = view.version;
            if let Some(action) = view.legal_actions.choose(rng) {
                chosen = Some((seat, action.clone(), token));
                break;
            }
        }
        let Some((seat, action, token)) = chosen else {
            return Err(tonic::Status::internal("nobody may act in a running game"));
        };
        let req = SubmitMoveRequest {
            game_id: game_id.clone(),
            seat: seat as u32,
            move_id: format!("t{position}"),
            expected_version: version,
            action: Some(action),
        };
        let sent = Instant::now();
        let moved = lean.submit_move(authed(req, token)?).await?;
        traffic.latencies.record_move(position, sent.elapsed());
        traffic.moves += 1;
        version = moved.version;
        position += 1;
    }
    Ok(())
}

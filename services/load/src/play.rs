//! The default mode: N concurrent games played to the end by random
//! players, each move a GetView of the seat to act and a SubmitMove with a
//! move id and the expected version; then the raw insert limit at the same
//! concurrency; then the report.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;
use skit_api::authed;
use skit_proto::v1::game_service_client::GameServiceClient;
use skit_proto::v1::{GetViewRequest, Phase, SubmitMoveRequest};
use tokio::sync::Mutex;
use tonic::transport::Channel;

use crate::commits;
use crate::cpu::{self, ServiceCpu};
use crate::lean::{LeanClient, SeatView};
use crate::raw;
use crate::report::{self, Latencies, Setup, Totals};
use crate::target::{Seats, Service, TargetArgs, create_game};

#[derive(clap::Args, Debug)]
pub struct PlayArgs {
    #[command(flatten)]
    pub target: TargetArgs,
    /// Games played at once.
    #[arg(long, default_value_t = 32)]
    pub games: usize,
    /// Players per game.
    #[arg(long, default_value_t = 3)]
    pub players: usize,
    /// The rules preset.
    #[arg(long, default_value = "skitgubbe")]
    pub preset: String,
    /// How long to play; games under way at the end are left unfinished.
    #[arg(long, default_value_t = 10.0)]
    pub seconds: f64,
    /// Stop once this many games are finished (instead of --seconds).
    #[arg(long)]
    pub total_games: Option<u64>,
    /// How long to run the raw insert loop (0: skip it).
    #[arg(long, default_value_t = 5.0)]
    pub raw_seconds: f64,
    /// Seed of the random players.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Shared counters of one run.
#[derive(Default)]
struct Shared {
    stop: AtomicBool,
    moves: AtomicU64,
    views: AtomicU64,
    games_finished: AtomicU64,
    errors: AtomicU64,
    latencies: Mutex<Latencies>,
}

pub async fn run(args: &PlayArgs) -> anyhow::Result<bool> {
    // The spawned service's Postgres pool: one connection per game. With
    // group commit off it gives half its pool to writers that each commit
    // one move at a time, so it gets two per game: as many commits in
    // flight as the raw loop's connections, "at the same concurrency".
    let games = u32::try_from(args.games).unwrap_or(32);
    let per_game = if args.target.group_commit { 1 } else { 2 };
    let pool = games.saturating_mul(per_game).max(10);
    let service = Service::start(&args.target, pool).await?;
    let service_cpu = match (args.target.spawn, args.target.service_pid) {
        (true, _) => ServiceCpu::Threads,
        (false, Some(pid)) => ServiceCpu::Process(pid),
        (false, None) => ServiceCpu::Unknown,
    };
    let mut seats = Seats::new();
    for p in 0..args.players {
        seats.push(service.guest(&format!("load-{p}")).await?);
    }
    let channels = service.channels(args.target.connections).await?;
    let database_url = args.target.database_url.clone().unwrap_or_default();

    let shared = Arc::new(Shared::default());
    let pg_before = cpu::postgres_pids(&database_url).await;
    let before = cpu::sample(service_cpu, &pg_before);
    let commits_before = commits::scrape(&channels[0], &service.url).await;
    let started = Instant::now();
    let mut workers = tokio::task::JoinSet::new();
    for w in 0..args.games {
        let channel = channels[w % channels.len()].clone();
        let client = (
            GameServiceClient::new(channel.clone()),
            LeanClient::new(channel),
        );
        let (shared, seats, preset) = (shared.clone(), seats.clone(), args.preset.clone());
        let total = args.total_games;
        let seed = args.seed.wrapping_mul(1000).wrapping_add(w as u64);
        workers.spawn(async move { worker(client, shared, seats, preset, total, seed).await });
    }
    if args.total_games.is_none() {
        tokio::time::sleep(Duration::from_secs_f64(args.seconds)).await;
        shared.stop.store(true, Ordering::Relaxed);
    }
    workers.join_all().await;
    let elapsed = started.elapsed();
    let pg_after = cpu::postgres_pids(&database_url).await;
    let after = cpu::sample(service_cpu, &pg_after);
    let service_use = cpu::between(&before, &after, service_cpu);
    let commits_after = commits::scrape(&channels[0], &service.url).await;

    let totals = Totals {
        moves: shared.moves.load(Ordering::Relaxed),
        views: shared.views.load(Ordering::Relaxed),
        games: shared.games_finished.load(Ordering::Relaxed),
        errors: shared.errors.load(Ordering::Relaxed),
        elapsed,
    };
    let latencies = shared.latencies.lock().await;
    let setup = Setup {
        games: args.games,
        players: args.players,
        preset: &args.preset,
        group_commit: args.target.spawn.then_some(args.target.group_commit),
    };
    report::print_service(&setup, &totals, &latencies, &service_use);
    if let (Some(before), Some(after)) = (commits_before, commits_after) {
        report::print_commits(commits::between(&before, &after));
    }
    drop(latencies);
    drop(channels);
    service.stop().await?;

    if args.raw_seconds > 0.0 && !database_url.is_empty() {
        let raw = raw::run(&database_url, args.games, args.raw_seconds).await?;
        report::print_raw(&totals, &raw);
    }
    Ok(totals.errors == 0)
}

/// Plays games one after another until told to stop.
async fn worker(
    mut client: (GameServiceClient<Channel>, LeanClient),
    shared: Arc<Shared>,
    seats: Seats,
    preset: String,
    total_games: Option<u64>,
    seed: u64,
) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut local = Latencies::default();
    let mut game_number = 0u64;
    while !shared.stop.load(Ordering::Relaxed) {
        game_number += 1;
        match play_game(
            &mut client,
            &shared,
            &seats,
            &preset,
            &mut rng,
            &mut local,
            seed,
            game_number,
        )
        .await
        {
            Ok(true) => {
                let done = shared.games_finished.fetch_add(1, Ordering::Relaxed) + 1;
                if total_games.is_some_and(|t| done >= t) {
                    shared.stop.store(true, Ordering::Relaxed);
                }
            }
            Ok(false) => {}
            Err(status) => {
                shared.errors.fetch_add(1, Ordering::Relaxed);
                eprintln!("error: {} {}", status.code(), status.message());
            }
        }
    }
    shared.latencies.lock().await.merge(&local);
}

/// One game to the end (`true`), or until told to stop (`false`).
#[allow(clippy::too_many_arguments)]
async fn play_game(
    (client, lean): &mut (GameServiceClient<Channel>, LeanClient),
    shared: &Shared,
    seats: &Seats,
    preset: &str,
    rng: &mut ChaCha8Rng,
    local: &mut Latencies,
    seed: u64,
    game_number: u64,
) -> Result<bool, tonic::Status> {
    let (game_id, _) = create_game(client, seats, preset).await?;
    let mut view = get_view(lean, &game_id, 0, &seats[0].1, None, local).await?;
    shared.views.fetch_add(1, Ordering::Relaxed);
    let mut position = 0usize;
    loop {
        if view.phase == Phase::Over as i32 {
            return Ok(true);
        }
        if shared.stop.load(Ordering::Relaxed) {
            return Ok(false);
        }
        let Some(&seat) = view.to_act.choose(rng) else {
            return Err(tonic::Status::internal("nobody may act in a running game"));
        };
        let token = &seats[seat as usize].1;
        let seat_view = get_view(lean, &game_id, seat, token, Some(view.version), local).await?;
        shared.views.fetch_add(1, Ordering::Relaxed);
        let Some(action) = seat_view.legal_actions.choose(rng).cloned() else {
            return Err(tonic::Status::internal(format!(
                "seat {seat} to act has no legal action"
            )));
        };
        let req = SubmitMoveRequest {
            game_id: game_id.clone(),
            seat,
            move_id: format!("{seed}-{game_number}-{position}"),
            expected_version: seat_view.version,
            action: Some(action),
        };
        let sent = Instant::now();
        let reply = lean.submit_move(authed(req, token)?).await?;
        local.record_move(position, sent.elapsed());
        shared.moves.fetch_add(1, Ordering::Relaxed);
        position += 1;
        view = reply
            .view
            .ok_or_else(|| tonic::Status::internal("a move's reply has no view"))?;
    }
}

async fn get_view(
    client: &mut LeanClient,
    game_id: &str,
    seat: u32,
    token: &str,
    history_after: Option<u64>,
    local: &mut Latencies,
) -> Result<SeatView, tonic::Status> {
    let req = GetViewRequest {
        game_id: game_id.into(),
        seat: Some(seat),
        history_after,
        ..Default::default()
    };
    let sent = Instant::now();
    let view = client.get_view(authed(req, token)?).await?;
    local.record_view(sent.elapsed());
    Ok(view)
}

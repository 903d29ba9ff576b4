//! The default mode: N concurrent games played to the end by random
//! players (`game`) for the set time; then the raw insert limit at the
//! same concurrency; then the report.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use skit_proto::v1::game_service_client::GameServiceClient;
use tonic::transport::Channel;

use crate::commits;
use crate::cpu::{self, ServiceCpu};
use crate::game::{Game, play_game};
use crate::lean::LeanClient;
use crate::raw;
use crate::report::{self, Latencies, Setup, Totals};
use crate::shared::Shared;
use crate::target::{Seats, Service, TargetArgs};

/// How long calls in flight at the set time may take to finish before
/// they are dropped: the run ends at its set time and this, whatever the
/// service does.
const GRACE: Duration = Duration::from_secs(2);

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

pub async fn run(args: &PlayArgs) -> anyhow::Result<bool> {
    // The spawned service's Postgres pool: one connection per game. With
    // group commit off it gives half its pool to writers that each commit
    // one move at a time, so it gets two per game: as many commits in
    // flight as the raw loop's connections, "at the same concurrency".
    // Never more than the database server takes.
    let per_game = if args.target.group_commit { 1 } else { 2 };
    let mut pool = args.games.saturating_mul(per_game).max(10);
    if let Some(url) = &args.target.database_url
        && let Some(room) = raw::postgres_room(url).await
    {
        pool = pool.min(room.saturating_sub(raw::SPARE_CONNECTIONS).max(10));
    }
    let pool = u32::try_from(pool).unwrap_or(u32::MAX);
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
    let channels = service.channels(args.target.connections()).await?;
    let database_url = args.target.database_url.clone().unwrap_or_default();
    // Request ids of this run's games, unlike any earlier run's on the
    // same database.
    let run_id = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());

    let shared = Arc::new(Shared::new());
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
        let games = format!("load-{run_id:x}-{seed}");
        workers
            .spawn(async move { worker(client, shared, seats, preset, total, seed, games).await });
    }
    let mut stopped = shared.stop.subscribe();
    if args.total_games.is_none() {
        let _ = tokio::time::timeout(
            Duration::from_secs_f64(args.seconds),
            stopped.wait_for(|stop| *stop),
        )
        .await;
    } else {
        let _ = stopped.wait_for(|stop| *stop).await;
    }
    shared.stop.send_replace(true);
    // What was done by the set time; calls answered after it are not counted.
    let elapsed = started.elapsed();
    let (moves, views) = (
        shared.moves.load(Ordering::Relaxed),
        shared.views.load(Ordering::Relaxed),
    );
    if tokio::time::timeout(GRACE, async {
        while workers.join_next().await.is_some() {}
    })
    .await
    .is_err()
    {
        shared.drop_calls.send_replace(true);
        workers.join_all().await;
    }
    let pg_after = cpu::postgres_pids(&database_url).await;
    let after = cpu::sample(service_cpu, &pg_after);
    let service_use = cpu::between(&before, &after, service_cpu);
    let commits_after = commits::scrape(&channels[0], &service.url).await;

    let totals = Totals {
        moves,
        views,
        games: shared.games_finished.load(Ordering::Relaxed),
        errors: shared.errors.load(Ordering::Relaxed),
        error_codes: shared.error_codes(),
        shed_unavailable: shared.sheds.unavailable.load(Ordering::Relaxed),
        shed_exhausted: shared.sheds.exhausted.load(Ordering::Relaxed),
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
        report::print_raw(&totals, &raw, args.games);
    }
    Ok(totals.errors == 0)
}

/// Plays games one after another until told to stop; drops the call in
/// flight once told to.
async fn worker(
    mut client: (GameServiceClient<Channel>, LeanClient),
    shared: Arc<Shared>,
    seats: Seats,
    preset: String,
    total_games: Option<u64>,
    seed: u64,
    games: String,
) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut local = Latencies::default();
    let mut game_number = 0u64;
    let mut drop_calls = shared.drop_calls.subscribe();
    while !shared.stopped() {
        game_number += 1;
        let game = Game {
            seats: &seats,
            preset: &preset,
            seed,
            request_id: format!("{games}-{game_number}"),
            number: game_number,
        };
        let played = tokio::select! {
            biased;
            _ = drop_calls.wait_for(|drop| *drop) => break,
            played = play_game(&mut client, &shared, &game, &mut rng, &mut local) => played,
        };
        match played {
            Ok(true) => {
                let done = shared.games_finished.fetch_add(1, Ordering::Relaxed) + 1;
                if total_games.is_some_and(|t| done >= t) {
                    shared.stop.send_replace(true);
                }
            }
            Ok(false) => {}
            Err(status) => shared.error(&status),
        }
    }
    shared.latencies.lock().await.merge(&local);
}

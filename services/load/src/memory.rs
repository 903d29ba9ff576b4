//! `skit-load memory`: creates and starts many games (all seats taken, so
//! each is dealt and held live in the service's cache) and prints the
//! service's resident memory before and after.

use std::time::Instant;

use crate::target::{Seats, Service, TargetArgs, Windows, create_games_timed};
use crate::traffic as play;

#[derive(clap::Args, Debug)]
pub struct MemoryArgs {
    #[command(flatten)]
    pub target: TargetArgs,
    /// Games to create and keep live.
    #[arg(long, default_value_t = 100_000)]
    pub games: u64,
    /// Creations under way at once.
    #[arg(long, default_value_t = 64)]
    pub concurrency: usize,
    #[arg(long, default_value_t = 3)]
    pub players: usize,
    #[arg(long, default_value = "skitgubbe")]
    pub preset: String,
    /// Then play this many moves in every game (fewer where one ends) and
    /// print the memory again: what a game in play adds per move.
    #[arg(long, default_value_t = 0)]
    pub moves: usize,
    /// Print the create-and-join rate of every window of this many games,
    /// and the last window's rate over the first's: whether creating slows
    /// as games accumulate.
    #[arg(long, default_value_t = 1_000)]
    pub window: u64,
}

/// VmRSS of a process, in bytes.
pub fn rss(pid: Option<u32>) -> Option<u64> {
    let path = pid.map_or("/proc/self/status".to_owned(), |p| {
        format!("/proc/{p}/status")
    });
    let status = std::fs::read_to_string(path).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

pub async fn run(args: &MemoryArgs) -> anyhow::Result<bool> {
    let pool = u32::try_from(args.concurrency).unwrap_or(64).max(10);
    let service = Service::start(&args.target, pool).await?;
    let pid = if args.target.spawn {
        None
    } else {
        args.target.service_pid
    };
    if !args.target.spawn && pid.is_none() {
        anyhow::bail!("with --url, give --service-pid to read the service's memory");
    }
    let mut seats = Seats::new();
    for p in 0..args.players {
        seats.push(service.guest(&format!("mem-{p}")).await?);
    }
    let channels = service.channels(args.target.connections()).await?;
    let before = rss(pid).unwrap_or(0);
    let started = Instant::now();
    let windows = Windows::new(args.window);
    let (games, errors) = create_games_timed(
        &channels,
        &seats,
        &args.preset,
        args.games,
        args.concurrency,
        Some(windows.clone()),
    )
    .await;
    let elapsed = started.elapsed();
    let after = rss(pid).unwrap_or(0);
    let mib = |b: u64| b as f64 / (1024.0 * 1024.0);
    println!(
        "memory: {} games created and started in {:.1} s ({:.0}/s), errors: {}",
        args.games,
        elapsed.as_secs_f64(),
        args.games as f64 / elapsed.as_secs_f64().max(1e-9),
        errors
    );
    println!(
        "  service RSS: {:.1} MiB before, {:.1} MiB after; {:.0} bytes per live game",
        mib(before),
        mib(after),
        after.saturating_sub(before) as f64 / args.games.max(1) as f64
    );
    report_windows(&windows);
    let mut ok = errors == 0;
    if args.moves > 0 {
        let started = Instant::now();
        let played = play::moves(&channels, &seats, games, args.moves, args.concurrency).await;
        let now = rss(pid).unwrap_or(0);
        println!(
            "  then {} moves ({:.1} a game) in {:.1} s: RSS {:.1} MiB, {:.0} bytes per live game, {:.0} bytes per move; errors: {}",
            played.moves,
            played.moves as f64 / args.games.max(1) as f64,
            started.elapsed().as_secs_f64(),
            mib(now),
            now.saturating_sub(before) as f64 / args.games.max(1) as f64,
            now.saturating_sub(after) as f64 / played.moves.max(1) as f64,
            played.errors
        );
        ok &= played.errors == 0;
    }
    drop(channels);
    service.stop().await?;
    Ok(ok)
}

/// The rate of the first window (the first games), of the window that
/// ends at each power of ten, and of the last, and last over first.
fn report_windows(windows: &Windows) {
    let rates = windows.rates();
    let (Some(first), Some(last)) = (rates.first(), rates.last()) else {
        return;
    };
    let size = windows.size();
    let mut line = format!("  create-and-join rate by {size}-game window:");
    let mut at = size;
    for (i, rate) in rates.iter().enumerate() {
        let live = (i as u64 + 1) * size;
        if i == 0 || live == at * 10 || i + 1 == rates.len() {
            line.push_str(&format!(" {live} live: {rate:.0}/s;"));
            if live == at * 10 {
                at = live;
            }
        }
    }
    println!("{line} last / first {:.2}", last / first);
}

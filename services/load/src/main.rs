//! `skit-load`: drives a game service over its real gRPC API with
//! concurrent random games, then measures the database's own limit (single
//! durable single-row inserts at the same concurrency) in the same run,
//! and prints both, their ratio, latencies and CPU use.
//!
//! The service is either started in this process (`--spawn`, on
//! `--database-url`; its threads are named so their CPU is told apart from
//! the tool's) or reached at `--url`. It lives beside the service rather
//! than in the `skit` command-line tool because it embeds the service and
//! talks to the database itself; `skit` is a client only.

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod commits;
mod cpu;
mod delivery;
mod game;
mod lean;
mod memory;
mod play;
mod raw;
mod report;
mod retry;
mod shared;
mod target;
mod traffic;
mod turns;
mod watch;
mod watchers;

use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, Subcommand};

/// Drive a game service with concurrent random games and compare its moves
/// per second with the database's own durable insert rate.
#[derive(Parser, Debug)]
#[command(name = "skit-load", version, args_conflicts_with_subcommands = true)]
struct Args {
    #[command(subcommand)]
    mode: Option<Mode>,
    #[command(flatten)]
    play: play::PlayArgs,
}

#[derive(Subcommand, Debug)]
enum Mode {
    /// Open many WatchGame streams and check each receives every update.
    Watch(watch::WatchArgs),
    /// Create and start many games and print the service's memory.
    Memory(memory::MemoryArgs),
    /// Seat one account in many games and time ListGames' my-turn pages.
    Turns(turns::TurnsArgs),
}

fn main() -> ExitCode {
    let args = Args::parse();
    let target = match &args.mode {
        None => &args.play.target,
        Some(Mode::Watch(w)) => &w.target,
        Some(Mode::Memory(m)) => &m.target,
        Some(Mode::Turns(t)) => &t.target,
    };
    // One thread on a small machine: the tool shares its cores with the
    // service and the database, and a second worker thread there only adds
    // wake-ups between threads (about a fifth of the tool's CPU), not
    // throughput. On a big one, one thread cannot send the calls fast
    // enough (`--threads`).
    let threads = target.threads();
    let built = if threads == 1 {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
    } else {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(threads)
            .enable_all()
            .build()
    };
    let runtime = match built {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("cannot start a runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let outcome = runtime.block_on(async {
        match args.mode {
            None => play::run(&args.play).await,
            Some(Mode::Watch(w)) => watch::run(&w).await,
            Some(Mode::Memory(m)) => memory::run(&m).await,
            Some(Mode::Turns(t)) => turns::run(&t).await,
        }
    });
    runtime.shutdown_timeout(Duration::from_secs(5));
    match outcome {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("skit-load: {e:#}");
            ExitCode::from(2)
        }
    }
}

//! `skit load`: drives a running game service over its real gRPC API with
//! concurrent random games, then measures the database's own limit (single
//! durable single-row inserts at the same concurrency) in the same run,
//! and prints both, their ratio, latencies and CPU use.
//!
//! The service is either started in this process (`--spawn`, on
//! `--database-url`; its threads are named so their CPU is told apart from
//! the tool's) or reached at `--url`.

mod commits;
mod cpu;
mod lean;
mod memory;
mod play;
mod raw;
mod report;
mod target;
mod watch;

use std::process::ExitCode;
use std::time::Duration;

use clap::Subcommand;

#[derive(clap::Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Args {
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
}

pub fn run(args: Args) -> ExitCode {
    // One thread: the tool shares two cores with the service and the
    // database, and a second worker thread only adds wake-ups between
    // threads (about a fifth of the tool's CPU), not throughput.
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
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
        }
    });
    runtime.shutdown_timeout(Duration::from_secs(5));
    match outcome {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("skit load: {e:#}");
            ExitCode::from(2)
        }
    }
}

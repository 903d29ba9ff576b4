//! `skit-matchmaker`: reads the config, starts telemetry, serves until SIGTERM or Ctrl-C.

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use anyhow::Context;
use clap::Parser;
use tokio::net::TcpListener;

/// The Skitgubbe matchmaker: players queue tickets, tables form by rating
/// (bots fill seats after a wait), and each game is created on the game
/// service. gRPC, gRPC-Web and REST/JSON on one port. Configured by the
/// environment alone.
#[derive(Debug, Parser)]
#[command(version, after_help = skit_matchmaker::Config::environment_help())]
struct Cli {}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    // Before anything starts: `--help` and `--version` answer and exit.
    Cli::parse();
    // Logs (RUST_LOG, LOG_FORMAT) and, with OTEL_EXPORTER_OTLP_ENDPOINT, OTLP traces.
    let _telemetry =
        skit_gateway::telemetry::init("skit-matchmaker").context("cannot start telemetry")?;
    let config = skit_matchmaker::Config::load().context("cannot read the configuration")?;
    tracing::info!(?config, "starting");
    let listener = TcpListener::bind(config.addr)
        .await
        .with_context(|| format!("cannot listen on {}", config.addr))?;
    // SIGTERM (a container's stop, Kubernetes) or Ctrl-C.
    let shutdown = skit_gateway::stop_signal();
    skit_matchmaker::run(listener, config, shutdown).await
}

//! `skit-game`: reads the config, starts telemetry, serves until SIGTERM or Ctrl-C;
//! or, with `--migrate`, brings the database's schema up to date and exits.

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use anyhow::Context;
use clap::Parser;
use tokio::net::TcpListener;

/// The Skitgubbe game service: games, moves, views, clocks, accounts and
/// ratings over gRPC, gRPC-Web and REST/JSON on one port. Configured by
/// the environment alone.
#[derive(Debug, Parser)]
#[command(version, after_help = skit_game::Config::environment_help())]
struct Cli {
    /// Bring the database's schema up to date (DATABASE_URL), then exit
    /// without serving: a deployment runs this once before instances of a
    /// new version take traffic. Instances also migrate as they start.
    #[arg(long)]
    migrate: bool,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    // Before anything starts: `--help` and `--version` answer and exit.
    let cli = Cli::parse();
    // Logs (RUST_LOG, LOG_FORMAT) and, with OTEL_EXPORTER_OTLP_ENDPOINT, OTLP traces.
    let _telemetry =
        skit_gateway::telemetry::init("skit-game").context("cannot start telemetry")?;
    let config = skit_game::Config::load().context("cannot read the configuration")?;
    if cli.migrate {
        let store = skit_store::Store::connect_with(&config.database_url, config.pool())
            .await
            .context("cannot migrate the database")?;
        skit_game::rekey_names(&store)
            .await
            .context("cannot recompute registered names' keys")?;
        store.shutdown().await;
        drop(store);
        tracing::info!(database = ?config.database_url, "the schema is up to date");
        return Ok(());
    }
    tracing::info!(?config, "starting");
    let listener = TcpListener::bind(config.addr)
        .await
        .with_context(|| format!("cannot listen on {}", config.addr))?;
    // SIGTERM (a container's stop, Kubernetes) or Ctrl-C.
    let shutdown = skit_gateway::stop_signal();
    skit_game::run(listener, config, shutdown).await
}

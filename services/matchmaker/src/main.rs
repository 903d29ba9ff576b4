//! `skit-matchmaker`: reads the config, starts telemetry, serves until Ctrl-C.

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use anyhow::Context;
use tokio::net::TcpListener;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    // Logs (RUST_LOG, LOG_FORMAT) and, with OTEL_EXPORTER_OTLP_ENDPOINT, OTLP traces.
    let _telemetry =
        skit_gateway::telemetry::init("skit-matchmaker").context("cannot start telemetry")?;
    let config = skit_matchmaker::Config::load().context("cannot read the configuration")?;
    tracing::info!(?config, "starting");
    let listener = TcpListener::bind(config.addr)
        .await
        .with_context(|| format!("cannot listen on {}", config.addr))?;
    let shutdown = async {
        if let Err(error) = tokio::signal::ctrl_c().await {
            tracing::error!(%error, "cannot wait for Ctrl-C");
        }
    };
    skit_matchmaker::run(listener, config, shutdown).await
}

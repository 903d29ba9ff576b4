//! `skit-game`: reads the config, starts telemetry, serves until Ctrl-C.

use anyhow::Context;
use tokio::net::TcpListener;
use tracing_subscriber::EnvFilter;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info")),
        )
        .init();
    let config = skit_game::Config::load().context("cannot read the configuration")?;
    tracing::info!(?config, "starting");
    let listener = TcpListener::bind(config.addr)
        .await
        .with_context(|| format!("cannot listen on {}", config.addr))?;
    let shutdown = async {
        if let Err(error) = tokio::signal::ctrl_c().await {
            tracing::error!(%error, "cannot wait for Ctrl-C");
        }
    };
    skit_game::run(listener, config, shutdown).await
}

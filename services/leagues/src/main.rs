//! `skit-leagues`: reads the config, starts telemetry, serves until SIGTERM or Ctrl-C.

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use anyhow::Context;
use clap::Parser;
use tokio::net::TcpListener;

/// The Skitgubbe league service: tournaments for tables of 2 to 6 seats
/// in five formats (Swiss, round robin, arena, ladder and elimination),
/// seated and played on the game service. gRPC, gRPC-Web and REST/JSON on
/// one port. Configured by the environment alone.
#[derive(Debug, Parser)]
#[command(version, after_help = skit_leagues::Config::environment_help())]
struct Cli {}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    Cli::parse();
    let _telemetry =
        skit_gateway::telemetry::init("skit-leagues").context("cannot start telemetry")?;
    let config = skit_leagues::Config::load().context("cannot read the configuration")?;
    tracing::info!(?config, "starting");
    let listener = TcpListener::bind(config.addr)
        .await
        .with_context(|| format!("cannot listen on {}", config.addr))?;
    skit_leagues::run(listener, config, skit_gateway::stop_signal()).await
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::Cli;

    #[test]
    fn the_help_names_the_five_formats() {
        let help = Cli::command().render_long_help().to_string();
        for format in ["Swiss", "round robin", "arena", "ladder", "elimination"] {
            assert!(help.contains(format), "{format} missing from: {help}");
        }
    }
}

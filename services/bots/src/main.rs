//! `skit-botworker`: reads the configuration and the command line, starts
//! telemetry, provisions accounts if asked, and plays until SIGTERM or Ctrl-C.

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::path::PathBuf;

use anyhow::Context;
use clap::Parser;
use skit_botworker::{AccountsFile, Config, Provision};
use tokio_util::sync::CancellationToken;

/// Plays bot accounts' turns on a Skitgubbe game service.
#[derive(Debug, Parser)]
#[command(version, after_help = Config::environment_help())]
struct Cli {
    /// The game service (overrides SKIT_BOT_SERVER).
    #[arg(long)]
    server: Option<String>,
    /// The accounts file (overrides SKIT_BOT_ACCOUNTS_FILE).
    #[arg(long)]
    accounts: Option<PathBuf>,
    /// Make sure the accounts file holds this many accounts of --strategy,
    /// creating the missing ones with SKIT_OPERATOR_TOKEN, and mark them
    /// house bots (the bots the matchmaker seats to fill tables).
    #[arg(long)]
    provision: Option<usize>,
    /// The strategy of provisioned accounts: random, greedy, search or ismcts.
    #[arg(long, default_value = "greedy")]
    strategy: String,
    /// Provisioned accounts are named <prefix>-<strategy>-<n>.
    #[arg(long, default_value = "bot")]
    name_prefix: String,
    /// Only provision, then exit.
    #[arg(long)]
    provision_only: bool,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    let _telemetry =
        skit_gateway::telemetry::init("skit-botworker").context("cannot start telemetry")?;
    let mut config = Config::load().context("cannot read the configuration")?;
    if let Some(server) = cli.server {
        config.server = server;
    }
    if let Some(path) = cli.accounts {
        config.accounts_file = path;
    }
    if let Some(token) = &config.operator_token {
        token.check_operator_token()?;
    }
    tracing::info!(?config, "starting");
    // SIGTERM (a container's stop, Kubernetes) or Ctrl-C, while
    // provisioning waits for the service as well as while playing.
    let stop = CancellationToken::new();
    tokio::spawn({
        let stop = stop.clone();
        async move {
            skit_gateway::stop_signal().await;
            stop.cancel();
        }
    });
    let readiness = match &config.health_addr {
        Some(addr) => Some(skit_botworker::serve_health(addr).await?.1),
        None => None,
    };
    let file = match cli.provision {
        Some(count) => {
            let operator = config
                .operator_token
                .clone()
                .context("--provision needs SKIT_OPERATOR_TOKEN")?;
            let want = Provision {
                count,
                strategy: cli.strategy,
                prefix: cli.name_prefix,
            };
            let provisioned =
                skit_botworker::provision(&config.server, &operator, &config.accounts_file, &want);
            tokio::select! {
                file = provisioned => file?,
                () = stop.cancelled() => {
                    tracing::info!("stopped while provisioning");
                    return Ok(());
                }
            }
        }
        None => AccountsFile::load(&config.accounts_file)?,
    };
    if cli.provision_only {
        return Ok(());
    }
    if let Some(readiness) = &readiness {
        readiness.ready();
    }
    skit_botworker::run(config, file.accounts, stop.cancelled_owned()).await
}

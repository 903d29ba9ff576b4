//! `skitgubbe`: the game service, the matchmaker, the league service and a
//! bot worker together on SQLite files in the current folder, for trying
//! things out. In production each runs as its own binary (`skit-game`,
//! `skit-matchmaker`, `skit-leagues`, `skit-botworker`).

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use anyhow::Context;
use clap::Parser;

/// What the environment sets; the services' own settings apply too
/// (`skit-game --help`, `skit-matchmaker --help`, `skit-leagues --help`,
/// `skit-botworker --help`),
/// except the addresses and files chosen here.
const ENVIRONMENT: &str = "Environment:
  SKIT_DATA_DIR         where the databases, the bot accounts and the operator
                        token are kept [default: .]
  DATABASE_URL          the game service's database [default: SQLite
                        skitgubbe.db in SKIT_DATA_DIR]
  SKIT_OPERATOR_TOKEN   the operator's token, 16 characters or more [default:
                        made once, kept in skitgubbe-operator.token]
  RUST_LOG, LOG_FORMAT, OTEL_EXPORTER_OTLP_ENDPOINT   logs and traces
The game service's, the matchmaker's, the league service's and the bot
worker's other settings apply too: see skit-game --help, skit-matchmaker
--help, skit-leagues --help and skit-botworker --help.";

/// A whole local Skitgubbe in one process: the game service on
/// 127.0.0.1:50051, the matchmaker on 127.0.0.1:50052, the league service
/// on 127.0.0.1:50053 and six bots, on
/// SQLite files. Play against the bots in a browser at
/// http://127.0.0.1:50051/ or with `skit play`.
#[derive(Debug, Parser)]
#[command(version, after_help = ENVIRONMENT)]
struct Cli {}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    // Before anything starts: `--help` and `--version` answer and exit.
    Cli::parse();
    let _telemetry =
        skit_gateway::telemetry::init("skitgubbe").context("cannot start telemetry")?;
    let settings = skitgubbe::Settings {
        data_dir: std::env::var_os("SKIT_DATA_DIR").map_or_else(|| ".".into(), Into::into),
        database_url: std::env::var("DATABASE_URL").ok(),
        ..skitgubbe::Settings::default()
    };
    let running = skitgubbe::start(settings).await?;
    println!(
        "Skitgubbe is running.\n  game service  {} (gRPC, gRPC-Web, REST/JSON; /openapi.json)\n  matchmaker    {}\n  leagues       {}\n  bot worker    6 bots (4 greedy, 2 search)\nPlay in a browser:  open {}/\nor at the terminal:  cargo run --bin skit -- play\nStop with Ctrl-C.",
        running.game_url, running.matchmaker_url, running.leagues_url, running.game_url
    );
    running.until_ctrl_c().await
}

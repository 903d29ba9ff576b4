//! `skitgubbe`: the game service, the matchmaker and a bot worker together
//! on SQLite files in the current folder, for trying things out. In
//! production each runs as its own binary (`skit-game`, `skit-matchmaker`,
//! `skit-botworker`).

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use anyhow::Context;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let _telemetry =
        skit_gateway::telemetry::init("skitgubbe").context("cannot start telemetry")?;
    let settings = skitgubbe::Settings {
        data_dir: std::env::var_os("SKIT_DATA_DIR").map_or_else(|| ".".into(), Into::into),
        database_url: std::env::var("DATABASE_URL").ok(),
        ..skitgubbe::Settings::default()
    };
    let running = skitgubbe::start(settings).await?;
    println!(
        "Skitgubbe is running.\n  game service  {} (gRPC, gRPC-Web, REST/JSON; /openapi.json)\n  matchmaker    {}\n  bot worker    6 bots (4 greedy, 2 search)\nPlay a game against the bots:  cargo run --bin skit -- play\nStop with Ctrl-C.",
        running.game_url, running.matchmaker_url
    );
    running.until_ctrl_c().await
}

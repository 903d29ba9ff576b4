//! `skit play`: a person plays a whole game at the terminal. They queue
//! with the matchmaker (bots fill the table), see what happened since
//! their last look (`narrate`: moves, what they drew, who won each trick,
//! what trumps mean), the table and what they may do (`render`, `moves`),
//! and type the number of their move while their clock counts down.

mod moves;
mod narrate;
mod render;
mod session;
mod text;
mod ties;
mod tricks;
mod trumps;

pub use session::{play_game, queue};

use std::io::{BufRead, IsTerminal, Write};
use std::process::ExitCode;

use skit_proto::v1::Rules;
use tokio::sync::mpsc;
use tonic::transport::Channel;

use crate::lang::tr;

#[derive(clap::Args)]
pub struct Args {
    /// The game service.
    #[arg(long, default_value = "http://127.0.0.1:50051", env = "SKIT_GAME_URL")]
    game_url: String,
    /// The matchmaker.
    #[arg(long, default_value = "http://127.0.0.1:50052", env = "SKIT_MM_URL")]
    matchmaker_url: String,
    /// Play as this account; without it a guest account is created.
    #[arg(long, env = "SKIT_TOKEN", hide_env_values = true)]
    token: Option<String>,
    /// The guest's name.
    #[arg(long)]
    name: Option<String>,
    /// The preset to queue for.
    #[arg(long, default_value = "skitgubbe")]
    preset: String,
    /// Acceptable numbers of players (repeat for several); none: any.
    #[arg(long = "players")]
    players: Vec<u32>,
    /// Play a seat of an existing game instead of queueing.
    #[arg(long, requires = "seat")]
    game: Option<String>,
    #[arg(long)]
    seat: Option<u32>,
}

async fn connect(url: &str) -> anyhow::Result<Channel> {
    crate::connect::channel(url, "; is the service running (cargo run --bin skitgubbe)?").await
}

/// Lines typed at the terminal, read on their own thread.
fn stdin_lines() -> mpsc::Receiver<String> {
    let (tx, rx) = mpsc::channel(1);
    std::thread::spawn(move || {
        for line in std::io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            if tx.blocking_send(line).is_err() {
                break;
            }
        }
    });
    rx
}

async fn session(args: &Args) -> anyhow::Result<()> {
    let mut out = std::io::stdout();
    let games = connect(&args.game_url).await?;
    let token = match &args.token {
        Some(token) => token.clone(),
        None => session::guest(games.clone(), args.name.clone()).await?,
    };
    let (game_id, seat) = match (&args.game, args.seat) {
        (Some(game), Some(seat)) => (game.clone(), seat),
        _ => {
            let matchmaker = connect(&args.matchmaker_url).await?;
            let rules = Rules {
                preset: args.preset.clone(),
                options: None,
            };
            queue(matchmaker, &token, rules, args.players.clone(), &mut out).await?
        }
    };
    let seat_text = seat.to_string();
    writeln!(
        out,
        "{}",
        tr("skit-seated", &[("game", &game_id), ("seat", &seat_text)])
    )?;
    let mut input = stdin_lines();
    let live_clock = out.is_terminal();
    match play_game(
        games, &token, &game_id, seat, &mut input, &mut out, live_clock,
    )
    .await?
    {
        Some(_) => Ok(()),
        None => {
            writeln!(out, "{}", tr("skit-left", &[]))?;
            Ok(())
        }
    }
}

pub fn run(args: &Args) -> ExitCode {
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("error: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(session(args)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

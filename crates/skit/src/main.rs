//! `skit`: the Skitgubbe command-line tool.

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod admin;
mod arena;
mod bench;
mod connect;
mod demo;
mod lang;
mod play;
mod verify;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "skit",
    version,
    about = "Skitgubbe: play at the terminal, rules scenarios, benchmarks, demo games, fairness checks and operator administration"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// The language of the lines for people: en, sv, fi or nb (default:
    /// the locale's, LC_ALL / LC_MESSAGES / LANG, else English).
    #[arg(long, global = true, value_parser = lang::parse)]
    lang: Option<skit_i18n::Language>,
}

#[derive(Subcommand)]
enum Command {
    /// Run rule scenario files (or folders of them) and report `N passed, M failed`.
    Conformance {
        #[arg(required = true)]
        paths: Vec<PathBuf>,
    },
    /// Play random games start to finish and print games per second and ns per action.
    Bench(bench::Args),
    /// Play seeded games between bot strategies and print how often each lost.
    Arena(arena::Args),
    /// Play one game between built-in random players and print it.
    Demo(demo::Args),
    /// Queue with the matchmaker and play a whole game against bots at the
    /// terminal.
    Play(play::Args),
    /// Operator administration: accounts, disable/ban, house bots, void
    /// games, the audit log (needs the operator token).
    Admin(admin::Args),
    /// Check a finished game's record (JSON, with the revealed seed): the
    /// commitment, the deal and every shuffle. Exit 0 verified, 1 mismatch,
    /// 2 unreadable.
    Verify { file: PathBuf },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    lang::set(cli.lang.unwrap_or_else(skit_i18n::Language::from_env));
    match cli.command {
        Command::Conformance { paths } => {
            let (passed, failures) = skit_conformance::run(&paths);
            for failure in &failures {
                println!("{failure}");
            }
            println!("{passed} passed, {} failed", failures.len());
            if failures.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        Command::Admin(args) => admin::run(&args),
        Command::Arena(args) => arena::run(&args),
        Command::Bench(args) => bench::run(&args),
        Command::Demo(args) => demo::run(&args),
        Command::Play(args) => play::run(&args),
        Command::Verify { file } => verify::run(&file),
    }
}

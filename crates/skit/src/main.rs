//! `skit`: the Skitgubbe command-line tool.

mod bench;
mod conformance;
mod demo;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "skit",
    about = "Skitgubbe: rules scenarios, benchmarks and demo games"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
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
    /// Play one game between built-in random players and print it.
    Demo(demo::Args),
}

fn main() -> ExitCode {
    match Cli::parse().command {
        Command::Conformance { paths } => {
            let (passed, failures) = conformance::run(&paths);
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
        Command::Bench(args) => bench::run(&args),
        Command::Demo(args) => demo::run(&args),
    }
}

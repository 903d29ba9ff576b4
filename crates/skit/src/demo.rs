//! `skit demo`: one game between built-in random players, printed move by move.

use std::process::ExitCode;

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng, rngs::SmallRng};
use skit_engine::{Action, Card, Game, Phase, Preset, Ruleset};

#[derive(clap::Args)]
pub struct Args {
    #[arg(long, default_value = "skitgubbe")]
    preset: String,
    #[arg(long, default_value_t = 3)]
    players: u8,
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

pub fn run(args: &Args) -> ExitCode {
    let Some(preset) = Preset::from_name(&args.preset) else {
        eprintln!("unknown preset {:?}", args.preset);
        return ExitCode::FAILURE;
    };
    let mut rng = SmallRng::seed_from_u64(args.seed);
    let mut deck: Vec<Card> = Card::all().collect();
    deck.shuffle(&mut rng);
    let mut game = match Game::deal(Ruleset::preset(preset), args.players, 0, &deck) {
        Ok(game) => game,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    println!(
        "{} with {} players, seed {}",
        preset.name(),
        args.players,
        args.seed
    );
    let mut phase = Phase::One;
    while game.state().phase() != Phase::Over {
        let awaited = game.state().awaited_cards();
        let action = if awaited.is_empty() {
            let moves = game.legal_moves();
            let Some(&mv) = moves.get(rng.random_range(0..moves.len().max(1))) else {
                break;
            };
            Action::Move(mv)
        } else {
            let mut order: Vec<Card> = awaited.iter().collect();
            order.shuffle(&mut rng);
            Action::Shuffle(order)
        };
        if let Err(e) = game.apply(&action) {
            eprintln!("refused: {e}");
            return ExitCode::FAILURE;
        }
        println!("  {}", action.to_json());
        if game.state().phase() != phase {
            phase = game.state().phase();
            if phase == Phase::Two {
                let trump = game
                    .state()
                    .trump()
                    .map(|t| t.to_string())
                    .unwrap_or_default();
                println!("phase two, trumps {trump}");
            }
        }
    }
    let s = game.state();
    match s.loser() {
        Some(loser) => println!(
            "over: seat {loser} is the skitgubbe; out in order {:?}",
            s.out().collect::<Vec<_>>()
        ),
        None => println!("over: drawn by the action limit"),
    }
    ExitCode::SUCCESS
}

//! `skit bench`: random games start to finish, uniformly among legal actions,
//! on one core; prints games per second and nanoseconds per action.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng, rngs::SmallRng};
use skit_engine::{Action, Card, Phase, Preset, Ruleset, State};

#[derive(clap::Args)]
pub struct Args {
    /// Presets to measure (default: every preset).
    #[arg(long)]
    preset: Vec<String>,
    /// Players per game (clamped to each preset's range).
    #[arg(long, default_value_t = 3)]
    players: u8,
    /// Seconds to measure each preset.
    #[arg(long, default_value_t = 2.0)]
    seconds: f64,
    /// Play exactly this many games per preset instead of timing (for
    /// instruction counts under callgrind).
    #[arg(long)]
    games: Option<u64>,
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// Plays one random game on `state`; returns the number of actions applied.
pub fn random_game(rules: &Ruleset, state: &mut State, rng: &mut impl Rng) -> u64 {
    let mut actions = 0;
    while state.phase() != Phase::Over {
        let awaited = state.awaited_cards();
        if !awaited.is_empty() {
            let mut order: Vec<Card> = awaited.iter().collect();
            order.shuffle(rng);
            if state.apply(rules, &Action::Shuffle(order)).is_err() {
                break;
            }
            continue;
        }
        // Multiply-shift: uniform enough for a benchmark, and no division.
        let pick = |n: u32| ((u64::from(rng.next_u32()) * u64::from(n)) >> 32) as u32;
        let Some(mv) = state.random_move(rules, pick) else {
            break;
        };
        state.play_unchecked(rules, mv);
        actions += 1;
    }
    actions
}

pub fn run(args: &Args) -> ExitCode {
    let presets: Vec<Preset> = if args.preset.is_empty() {
        Preset::ALL.to_vec()
    } else {
        match args
            .preset
            .iter()
            .map(|p| Preset::from_name(p).ok_or(p))
            .collect()
        {
            Ok(list) => list,
            Err(name) => {
                eprintln!("unknown preset {name:?}");
                return ExitCode::FAILURE;
            }
        }
    };
    println!("state size: {} bytes", std::mem::size_of::<State>());
    println!(
        "{:<20} {:>7} {:>12} {:>12} {:>10}",
        "preset", "players", "games/s", "actions/game", "ns/action"
    );
    for preset in presets {
        let Ok(rules) = Ruleset::from_json(&serde_json::json!(preset.name())) else {
            println!(
                "{:<20} {:>7} {:>12}",
                preset.name(),
                "-",
                "not implemented yet"
            );
            continue;
        };
        let (lo, hi) = preset.players();
        let players = args.players.clamp(lo, hi);
        let mut rng = SmallRng::seed_from_u64(args.seed);
        let mut deck: Vec<Card> = Card::all().collect();
        let (mut games, mut actions) = (0u64, 0u64);
        let budget = Duration::from_secs_f64(args.seconds);
        let start = Instant::now();
        let batch = args.games.unwrap_or(256);
        while args
            .games
            .map_or(start.elapsed() < budget, |_| games < batch)
        {
            for _ in 0..batch {
                deck.shuffle(&mut rng);
                let Ok(mut state) = State::deal(&rules, players, 0, &deck) else {
                    break;
                };
                actions += random_game(&rules, &mut state, &mut rng);
                games += 1;
            }
        }
        let secs = start.elapsed().as_secs_f64();
        if games == 0 || actions == 0 {
            println!("{:<20} {players:>7} {:>12}", preset.name(), "not playable");
            continue;
        }
        println!(
            "{:<20} {players:>7} {:>12.0} {:>12.1} {:>10.1}",
            preset.name(),
            games as f64 / secs,
            actions as f64 / games as f64,
            secs * 1e9 / actions as f64
        );
    }
    ExitCode::SUCCESS
}

//! Random 3-player `skitgubbe` games start to finish, the engine alone: the
//! fixed workload behind the instruction counts in `docs/performance.md`.
//!
//! ```sh
//! cargo build --release -p skit-engine --example playout
//! valgrind --tool=callgrind target/release/examples/playout 1000
//! ```
//!
//! Prints the number of seat actions played (the same for the same game count).

use rand::seq::SliceRandom;
use rand::{RngCore, SeedableRng};
use skit_engine::{Action, Card, Phase, Preset, Ruleset, State};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let rules = Ruleset::preset(Preset::Skitgubbe);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let games: u64 = match std::env::args().nth(1) {
        Some(arg) => arg.parse()?,
        None => 1000,
    };
    let mut actions = 0u64;
    for g in 0..games {
        let mut deck: Vec<Card> = Card::all().collect();
        deck.shuffle(&mut rng);
        let mut state = State::deal(&rules, 3, (g % 3) as u8, &deck)?;
        while state.phase() != Phase::Over {
            let awaited = state.awaited_cards();
            if !awaited.is_empty() {
                let mut order: Vec<Card> = awaited.iter().collect();
                order.shuffle(&mut rng);
                state.apply(&rules, &Action::Shuffle(order))?;
                continue;
            }
            let pick = |n: u32| ((u64::from(rng.next_u32()) * u64::from(n)) >> 32) as u32;
            let Some(mv) = state.random_move(&rules, pick) else {
                break;
            };
            state.play_unchecked(&rules, mv);
            actions += 1;
        }
    }
    println!("{actions}");
    Ok(())
}

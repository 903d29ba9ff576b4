//! Bot strategies for the Skitgubbe family, shared by the bot workers, the
//! arena and clock take-overs.
//!
//! A [`Strategy`] sees only a seat's [`View`]: never the `Game` or its
//! `State`, so it cannot read another hand or the stock by construction. The
//! search samples the hidden cards itself, consistently with the view.
//!
//! ```
//! use rand::SeedableRng;
//! use skit_bots::by_name;
//! use skit_engine::{Card, Game, Preset, Ruleset};
//!
//! let deck: Vec<Card> = Card::all().collect();
//! let game = Game::deal(Ruleset::preset(Preset::Skitgubbe), 3, 0, &deck).unwrap();
//! let view = game.view(Some(1));
//! let mut bot = by_name("greedy").unwrap();
//! let mut rng = rand::rngs::SmallRng::seed_from_u64(7);
//! let choice = bot.choose(&view, &mut rng).unwrap();
//! assert!(view.legal.contains(&choice));
//! ```

mod determinize;
mod greedy;
mod heuristic;
mod playout;
mod random;
mod search;
mod strategy;

pub use determinize::Determinizer;
pub use greedy::Greedy;
pub use random::Random;
pub use search::{Budget, Search};
pub use strategy::Strategy;

/// The strategy names `by_name` accepts.
pub const NAMES: [&str; 3] = ["random", "greedy", "search"];

/// A strategy by name: `random`, `greedy` or `search` (default budget).
pub fn by_name(name: &str) -> Option<Box<dyn Strategy>> {
    match name {
        "random" => Some(Box::new(Random)),
        "greedy" => Some(Box::new(Greedy)),
        "search" => Some(Box::new(Search::default())),
        _ => None,
    }
}

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

mod bandit;
mod budget;
mod clock;
mod greedy;
mod heuristic;
mod ismcts;
mod omniscient;
mod playout;
mod random;
mod search;
mod strategy;
mod worlds;

pub use budget::{Budget, DECISION_TIME};
pub use greedy::Greedy;
pub use ismcts::Ismcts;
pub use omniscient::Omniscient;
pub use playout::Policy;
pub use random::Random;
pub use search::Search;
pub use strategy::Strategy;

/// The strategy names `by_name` accepts: the bots a service may run. The
/// omniscient bot is not one of them (it is not a [`Strategy`]).
pub const NAMES: [&str; 4] = ["random", "greedy", "search", "ismcts"];

/// Why `name` may not play in a service, for a bot only `skit arena` can
/// seat: the omniscient bot sees every hand, so it is the ceiling of the
/// strength tables and never a player, a house bot or a rated account.
pub fn refused_as_player(name: &str) -> Option<&'static str> {
    (name == Omniscient::NAME).then_some(
        "the omniscient bot sees every hand: it is the ceiling in `skit arena` strength tables and never plays or is rated in the service",
    )
}

/// A strategy by name, searches with the default budget ([`DECISION_TIME`]
/// of CPU time per decision).
pub fn by_name(name: &str) -> Option<Box<dyn Strategy>> {
    by_name_with(name, Budget::default())
}

/// A strategy by name, searches with `budget`.
pub fn by_name_with(name: &str, budget: Budget) -> Option<Box<dyn Strategy>> {
    match name {
        "random" => Some(Box::new(Random)),
        "greedy" => Some(Box::new(Greedy)),
        "search" => Some(Box::new(Search::new(budget))),
        "ismcts" => Some(Box::new(Ismcts::new(budget))),
        _ => None,
    }
}

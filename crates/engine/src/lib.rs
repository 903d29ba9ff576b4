//! The Skitgubbe family of card games: the rules and nothing else.
//!
//! A pure library: no I/O, no async, no randomness of its own. Chance events
//! (the deal, later shuffles) are inputs, so replaying a game's actions and
//! chance outcomes reproduces it exactly.
//!
//! ```
//! use skit_engine::{Card, Game, Preset, Ruleset};
//!
//! let rules = Ruleset::preset(Preset::Skitgubbe);
//! let deck: Vec<Card> = Card::all().collect();
//! let mut game = Game::deal(rules, 3, 0, &deck).unwrap();
//! while let Some(mv) = game.legal_moves().first().copied() {
//!     game.apply(&mv.into()).unwrap();
//! }
//! assert!(game.state().loser().is_some() || game.state().drawn());
//! ```

mod action;
mod action_index;
mod apply;
mod between;
mod card;
mod cardset;
mod check;
mod choices;
mod error;
mod game;
mod known;
mod legal;
mod phase1;
mod phase2;
pub mod rules;
mod sample;
mod seat;
mod select;
mod state;
mod view;

pub use action::{Action, Move, MoveKind, ParseActionError};
pub use action_index::NUM_ACTIONS;
pub use card::{Card, ParseCardError, Rank, Suit};
pub use cardset::{CardIter, CardSet};
pub use choices::{MAX_MOVES, MoveList};
pub use error::MoveError;
pub use game::{Game, Record};
pub use rules::{Preset, RulesError, Ruleset};
pub use sample::place::WorldError;
pub use sample::{SAMPLE_ATTEMPTS, SampleError, World};
pub use seat::{MAX_SEATS, Seat, SeatSet};
pub use state::{Awaiting, Phase, Position, SetupError, State};
pub use view::{SeatView, TableEntry, View};

/// This crate's version: a game record exported by the service names it as
/// the rules its actions were replayed under.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

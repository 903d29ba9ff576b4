//! Fair chance: every chance outcome of a game drawn from a per-game secret
//! seed by a pinned, documented algorithm (`skitgubbe-shuffle-v1`, see
//! `docs/fairness.md`), and the check anyone can run once the seed is
//! revealed.
//!
//! The service makes a [`Seed`], publishes [`Seed::commitment`] when the game
//! is created, deals from [`deal`] (or [`deck`] with a chosen dealer), answers
//! the k-th awaited shuffle with [`outcome`], and reveals the seed when the
//! game is over. [`verify`] replays the whole log against the seed.
//!
//! ```
//! use skit_engine::{Action, Game, Preset, Ruleset};
//! use skit_fairness::{Seed, deal, outcome, verify};
//!
//! let seed = Seed::from_hex(&"11".repeat(32)).unwrap();
//! let commitment = seed.commitment(); // published at creation
//! let rules = Ruleset::preset(Preset::Skitgubbe);
//! let (deck, dealer) = deal(&seed, 3);
//! let mut game = Game::deal(rules, 3, dealer, &deck).unwrap();
//! let (mut log, mut k) = (Vec::new(), 0);
//! while let Some(action) = {
//!     let awaited = game.state().awaited_cards();
//!     if awaited.is_empty() {
//!         game.legal_moves().first().map(|&m| Action::Move(m))
//!     } else {
//!         k += 1;
//!         Some(Action::Shuffle(outcome(&seed, k, awaited)))
//!     }
//! } {
//!     game.apply(&action).unwrap();
//!     log.push(action);
//! }
//! let summary = verify(&seed, &commitment, rules, 3, None, &log).unwrap();
//! assert!(summary.over);
//! ```

mod record;
mod seed;
mod shuffle;
mod verify;

pub use record::GameRecord;
pub use seed::{Seed, SeedError};
pub use shuffle::{ALGORITHM, deal, dealer, deck, outcome};
pub use verify::{Summary, VerifyError, verify};

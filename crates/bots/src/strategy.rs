//! What every bot is: a way of choosing a seat's action from what that
//! seat may see.

use rand::RngCore;
use skit_engine::{MoveKind, View};

/// A way of choosing a seat's action from what that seat may see.
pub trait Strategy: Send + std::fmt::Debug {
    /// The name `by_name` knows it by.
    fn name(&self) -> &'static str;

    /// One of `view.legal`, or `None` when the view offers no action (a
    /// spectator's view, a finished game, an awaited shuffle).
    fn choose(&mut self, view: &View, rng: &mut dyn RngCore) -> Option<MoveKind>;
}

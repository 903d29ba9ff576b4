//! The baseline: uniform over the legal actions.

use rand::{Rng, RngCore};
use skit_engine::{MoveKind, View};

use crate::Strategy;

/// Picks uniformly among `view.legal`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Random;

impl Strategy for Random {
    fn name(&self) -> &'static str {
        "random"
    }

    fn choose(&mut self, view: &View, rng: &mut dyn RngCore) -> Option<MoveKind> {
        if view.legal.is_empty() {
            return None;
        }
        Some(view.legal[rng.random_range(0..view.legal.len())])
    }
}

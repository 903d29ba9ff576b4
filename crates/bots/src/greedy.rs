//! `greedy`: the shared heuristic applied to the seat's view.

use rand::RngCore;
use skit_engine::{MoveKind, View};

use crate::Strategy;
use crate::heuristic::Situation;

/// Scores every legal action with [`Situation::score`] and takes the best.
#[derive(Clone, Copy, Debug, Default)]
pub struct Greedy;

impl Greedy {
    /// The greedy choice, without a random generator.
    pub fn pick(view: &View) -> Option<MoveKind> {
        if view.legal.len() == 1 {
            return view.legal.first().copied();
        }
        Situation::from_view(view)?.best(&view.legal)
    }
}

impl Strategy for Greedy {
    fn name(&self) -> &'static str {
        "greedy"
    }

    fn choose(&mut self, view: &View, _rng: &mut dyn RngCore) -> Option<MoveKind> {
        Greedy::pick(view)
    }
}

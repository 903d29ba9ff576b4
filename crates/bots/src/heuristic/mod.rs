//! The heuristic both `greedy` and the search's playouts use: a score for
//! each legal action of one seat, from public facts and that seat's hand
//! only. `greedy` reads them off a `View`; playouts off a sampled
//! `State`, seat by seat, so every simulated player plays alike.

mod phase_one;
mod phase_two;
mod situation;

use skit_engine::{MoveKind, Phase};

pub(crate) use situation::Situation;

impl Situation {
    /// How much one action is worth to the seat; higher is better.
    pub fn score(&self, kind: &MoveKind) -> f32 {
        match kind {
            MoveKind::Rob => 100.0,
            MoveKind::Claim => 100.0,
            MoveKind::Bank => 50.0,
            _ if self.phase == Phase::One => phase_one::score(self, kind),
            _ => phase_two::score(self, kind),
        }
    }

    /// The best-scoring action of `legal` (the first of equals).
    pub fn best<'a>(&self, legal: impl IntoIterator<Item = &'a MoveKind>) -> Option<MoveKind> {
        let mut best: Option<(f32, MoveKind)> = None;
        for kind in legal {
            let s = self.score(kind);
            if best.is_none_or(|(b, _)| s > b) {
                best = Some((s, *kind));
            }
        }
        best.map(|(_, k)| k)
    }
}

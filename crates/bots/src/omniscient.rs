//! `omniscient`: the ceiling the other bots are measured against. It sees
//! the true state, every hand and the stock's order included, and runs the
//! same search as `search` ([`bandit`](crate::bandit)) with the true state
//! in place of sampled ones, under the same budget. The gap between the two
//! is what inference over hidden cards could still win.
//!
//! It is not a [`Strategy`](crate::Strategy): a strategy is handed a seat's
//! `View`, and this bot needs the `State`, which no service hands out. So
//! only a program holding the whole game (`skit arena`) can seat it, and it
//! is not among [`NAMES`](crate::NAMES): no house bot, ladder or rating can
//! be given one.

use rand::RngCore;
use skit_engine::{MoveKind, Ruleset, Seat, State};

use crate::bandit;
use crate::budget::Budget;
use crate::heuristic::Situation;

/// Perfect-information Monte Carlo search over the true state.
#[derive(Clone, Copy, Debug, Default)]
pub struct Omniscient {
    pub budget: Budget,
}

impl Omniscient {
    pub const NAME: &'static str = "omniscient";

    pub fn new(budget: Budget) -> Omniscient {
        Omniscient { budget }
    }

    /// `seat`'s action in `state`, one of its legal moves; `None` when it
    /// has none.
    pub fn choose(
        &mut self,
        rules: &Ruleset,
        state: &State,
        seat: Seat,
        rng: &mut dyn RngCore,
    ) -> Option<MoveKind> {
        let legal: Vec<MoveKind> = state
            .legal_moves_for(rules, seat)
            .iter()
            .map(|m| m.kind)
            .collect();
        if legal.len() <= 1 {
            return legal.first().copied();
        }
        let clock = self.budget.start();
        let situation = Situation::from_state(rules.options, state, seat);
        let kinds = bandit::candidates(Some(&situation), legal, self.budget.candidates);
        bandit::choose(
            rules,
            seat,
            &kinds,
            &self.budget,
            &clock,
            &mut |_| *state,
            rng,
        )
    }
}

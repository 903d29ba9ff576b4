//! `search`: determinized Monte Carlo search. For each decision it samples
//! states consistent with the seat's view, then spends its playouts over
//! the seat's candidate actions with UCB1, each playout on the next sampled
//! state, and plays the most visited action ([`bandit`](crate::bandit)).
//! Only the seat's own decision is searched; everyone in a playout plays
//! the shared heuristic.

use rand::RngCore;
use skit_engine::{MoveKind, View};

use crate::bandit;
use crate::budget::Budget;
use crate::heuristic::Situation;
use crate::worlds::Pool;
use crate::{Greedy, Strategy};

/// Determinized Monte Carlo search over the seat's own actions.
#[derive(Clone, Copy, Debug, Default)]
pub struct Search {
    pub budget: Budget,
}

impl Search {
    pub fn new(budget: Budget) -> Search {
        Search { budget }
    }
}

impl Strategy for Search {
    fn name(&self) -> &'static str {
        "search"
    }

    fn choose(&mut self, view: &View, rng: &mut dyn RngCore) -> Option<MoveKind> {
        if view.legal.len() <= 1 {
            return view.legal.first().copied();
        }
        let seat = view.seat?;
        let clock = self.budget.start();
        let Some(mut pool) = Pool::new(view, self.budget.determinizations, rng) else {
            return Greedy::pick(view);
        };
        let kinds = bandit::candidates(
            Situation::from_view(view).as_ref(),
            view.legal.iter().copied(),
            self.budget.candidates,
        );
        bandit::choose(
            &view.rules,
            seat,
            &kinds,
            &self.budget,
            &clock,
            &mut |rng| pool.next(rng),
            rng,
        )
    }
}

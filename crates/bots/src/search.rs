//! `search`: determinized Monte Carlo search. For each decision it samples
//! several states consistent with the seat's view ([`Determinizer`]), then
//! spends its playouts over the seat's candidate actions with UCB1, each
//! playout on the next sampled state, and plays the most visited action.
//! Only the seat's own decision is searched; everyone in a playout plays the
//! shared heuristic.

use std::time::{Duration, Instant};

use rand::RngCore;
use skit_engine::{Move, MoveKind, MoveList, State, View};

use crate::determinize::Determinizer;
use crate::heuristic::Situation;
use crate::playout::{Policy, playout};
use crate::{Greedy, Strategy};

/// How much work one decision may take.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Sampled states per decision.
    pub determinizations: usize,
    /// Playouts per decision, spread over the sampled states.
    pub playouts: usize,
    /// Optional wall-clock limit per decision (makes choices depend on timing).
    pub time: Option<Duration>,
    /// At most this many actions are searched: the heuristic's best.
    pub candidates: usize,
    /// UCB1 exploration constant.
    pub exploration: f32,
    pub policy: Policy,
}

impl Default for Budget {
    fn default() -> Budget {
        Budget {
            determinizations: 24,
            playouts: 400,
            time: None,
            candidates: 8,
            exploration: 0.7,
            policy: Policy::default(),
        }
    }
}

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

/// Visits and summed rewards of one candidate action.
#[derive(Clone, Copy, Debug)]
struct Arm {
    kind: MoveKind,
    visits: u32,
    total: f32,
}

impl Arm {
    fn ucb(&self, ln_n: f32, c: f32) -> f32 {
        if self.visits == 0 {
            return f32::INFINITY;
        }
        let v = self.visits as f32;
        self.total / v + c * (ln_n / v).sqrt()
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
        let worlds: Vec<State> = match Determinizer::new(view) {
            Some(d) => (0..self.budget.determinizations.max(1))
                .filter_map(|_| d.sample(rng))
                .collect(),
            None => Vec::new(),
        };
        if worlds.is_empty() {
            return Greedy::pick(view);
        }
        let mut arms = candidates(view, self.budget.candidates);
        if arms.len() == 1 {
            return arms.first().map(|a| a.kind);
        }
        self.run(view, &worlds, &mut arms, rng);
        arms.iter()
            .max_by(|a, b| {
                (a.visits, a.total)
                    .partial_cmp(&(b.visits, b.total))
                    .unwrap_or(std::cmp::Ordering::Equal)
            })
            .map(|a| a.kind)
    }
}

/// The heuristic's best `limit` actions, best first.
fn candidates(view: &View, limit: usize) -> Vec<Arm> {
    let mut scored: Vec<(f32, MoveKind)> = match Situation::from_view(view) {
        Some(sit) => view.legal.iter().map(|k| (sit.score(k), *k)).collect(),
        None => view.legal.iter().map(|k| (0.0, *k)).collect(),
    };
    scored.sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap_or(std::cmp::Ordering::Equal));
    scored
        .into_iter()
        .take(limit.max(1))
        .map(|(_, kind)| Arm {
            kind,
            visits: 0,
            total: 0.0,
        })
        .collect()
}

impl Search {
    fn run(&self, view: &View, worlds: &[State], arms: &mut [Arm], rng: &mut dyn RngCore) {
        let Some(seat) = view.seat else {
            return;
        };
        let rules = &view.rules;
        let start = Instant::now();
        let mut list = MoveList::new();
        for i in 0..self.budget.playouts {
            if i % 16 == 15 && self.budget.time.is_some_and(|t| start.elapsed() >= t) {
                break;
            }
            let ln_n = ((i + 1) as f32).ln();
            let Some(arm) = arms.iter_mut().max_by(|a, b| {
                a.ucb(ln_n, self.budget.exploration)
                    .partial_cmp(&b.ucb(ln_n, self.budget.exploration))
                    .unwrap_or(std::cmp::Ordering::Equal)
            }) else {
                return;
            };
            let mut state = worlds[i % worlds.len()];
            let reward = match state.play(rules, Move::new(seat, arm.kind)) {
                Ok(()) => playout(rules, &mut state, seat, self.budget.policy, &mut list, rng),
                Err(_) => 0.0,
            };
            arm.visits += 1;
            arm.total += reward;
        }
    }
}

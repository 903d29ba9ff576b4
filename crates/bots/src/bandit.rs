//! Flat UCB1 over one seat's candidate actions: each playout tries the arm
//! with the highest upper confidence bound on the next state handed in, and
//! the most visited arm is played. `search` hands in sampled states,
//! `omniscient` the true one.

use rand::RngCore;
use skit_engine::{Move, MoveKind, MoveList, Ruleset, Seat, State};

use crate::budget::Budget;
use crate::clock::Clock;
use crate::heuristic::Situation;
use crate::playout::playout;

/// Visits and summed rewards of one candidate action.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Arm {
    pub kind: MoveKind,
    pub visits: u32,
    pub total: f32,
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

/// The heuristic's best `limit` of `legal`, best first (in the given order
/// without a situation to score them).
pub(crate) fn candidates(
    situation: Option<&Situation>,
    legal: impl IntoIterator<Item = MoveKind>,
    limit: usize,
) -> Vec<MoveKind> {
    let mut scored: Vec<(f32, MoveKind)> = legal
        .into_iter()
        .map(|k| (situation.map_or(0.0, |s| s.score(&k)), k))
        .collect();
    scored.sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap_or(std::cmp::Ordering::Equal));
    scored
        .into_iter()
        .take(limit.max(1))
        .map(|(_, kind)| kind)
        .collect()
}

/// Spends the budget on `kinds` for `seat`, each playout on `next()`'s
/// state, and returns the most visited (then best scoring) action.
pub(crate) fn choose(
    rules: &Ruleset,
    seat: Seat,
    kinds: &[MoveKind],
    budget: &Budget,
    clock: &Clock,
    next: &mut dyn FnMut(&mut dyn RngCore) -> State,
    rng: &mut dyn RngCore,
) -> Option<MoveKind> {
    let mut arms: Vec<Arm> = kinds
        .iter()
        .map(|&kind| Arm {
            kind,
            visits: 0,
            total: 0.0,
        })
        .collect();
    if arms.len() > 1 {
        let mut list = MoveList::new();
        for i in 0..budget.playouts {
            if clock.expired() {
                break;
            }
            let ln_n = ((i + 1) as f32).ln();
            let c = budget.exploration;
            let Some(arm) = arms
                .iter_mut()
                .max_by(|a, b| a.ucb(ln_n, c).total_cmp(&b.ucb(ln_n, c)))
            else {
                break;
            };
            let mut state = next(rng);
            let reward = match state.play(rules, Move::new(seat, arm.kind)) {
                Ok(()) => {
                    match playout(
                        rules,
                        &mut state,
                        seat,
                        budget.policy,
                        &mut list,
                        clock,
                        rng,
                    ) {
                        Some(reward) => reward,
                        None => break,
                    }
                }
                Err(_) => 0.0,
            };
            arm.visits += 1;
            arm.total += reward;
        }
    }
    arms.iter()
        .max_by(|a, b| {
            (a.visits, a.total)
                .partial_cmp(&(b.visits, b.total))
                .unwrap_or(std::cmp::Ordering::Equal)
        })
        .map(|a| a.kind)
}

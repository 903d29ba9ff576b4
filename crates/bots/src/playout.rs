//! Playouts on a sampled state: every seat plays the shared heuristic, with
//! a small chance of a uniformly random action so the search sees some
//! variety, until the game ends or a cap is reached.

use rand::seq::SliceRandom;
use rand::{Rng, RngCore};
use skit_engine::{Action, Card, MoveList, Phase, Ruleset, Seat, State};

use crate::heuristic::Situation;

/// How a playout plays.
#[derive(Clone, Copy, Debug)]
pub struct Policy {
    /// The probability of a uniformly random action instead of the heuristic's.
    pub epsilon: f32,
    /// Actions after which a playout stops and counts as a draw.
    pub cap: u32,
}

impl Default for Policy {
    fn default() -> Policy {
        Policy {
            epsilon: 0.1,
            cap: 600,
        }
    }
}

/// What `seat` scores at the end: 1 not the loser, 0 the loser, ½ drawn.
pub(crate) fn reward(state: &State, seat: Seat) -> f32 {
    match state.loser() {
        Some(loser) if loser == seat => 0.0,
        Some(_) => 1.0,
        None => 0.5,
    }
}

/// Plays `state` on to the end with `policy`; returns `seat`'s reward.
pub(crate) fn playout(
    rules: &Ruleset,
    state: &mut State,
    seat: Seat,
    policy: Policy,
    list: &mut MoveList,
    rng: &mut dyn RngCore,
) -> f32 {
    let mut steps = 0;
    while state.phase() != Phase::Over && steps < policy.cap {
        steps += 1;
        let awaited = state.awaited_cards();
        if !awaited.is_empty() {
            let mut order: Vec<Card> = awaited.iter().collect();
            order.shuffle(rng);
            if state.apply(rules, &Action::Shuffle(order)).is_err() {
                break;
            }
            continue;
        }
        let mv = if rng.random::<f32>() < policy.epsilon {
            state.random_move(rules, |n| rng.random_range(0..n))
        } else {
            state.legal_moves_into(rules, list);
            match list.len() {
                0 => None,
                1 => list.first().copied(),
                _ => {
                    let actor = list[0].seat;
                    let sit = Situation::from_state(rules.options, state, actor);
                    let kinds = list.iter().filter(|m| m.seat == actor).map(|m| &m.kind);
                    sit.best(kinds)
                        .map(|kind| skit_engine::Move::new(actor, kind))
                }
            }
        };
        let Some(mv) = mv else {
            break;
        };
        state.play_unchecked(rules, mv);
    }
    reward(state, seat)
}

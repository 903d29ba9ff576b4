//! Playouts on a sampled state: every seat plays the shared heuristic, with
//! a small chance of a uniformly random action so the search sees some
//! variety, until the game ends or a cap is reached.

use rand::seq::SliceRandom;
use rand::{Rng, RngCore};
use skit_engine::{Action, Card, Move, MoveList, Phase, Ruleset, Seat, State};

use crate::clock::Clock;
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

/// Resolves an awaited shuffle with a random order. `Some(true)` if one
/// was awaited, `Some(false)` if none, `None` if the state refused it.
pub(crate) fn resolve_chance(
    rules: &Ruleset,
    state: &mut State,
    rng: &mut dyn RngCore,
) -> Option<bool> {
    let awaited = state.awaited_cards();
    if awaited.is_empty() {
        return Some(false);
    }
    let mut order: Vec<Card> = awaited.iter().collect();
    order.shuffle(rng);
    state.apply(rules, &Action::Shuffle(order)).ok()?;
    Some(true)
}

/// The policy's next move, `list` holding the state's legal moves: the
/// heuristic's choice for the first seat to act, or with probability
/// `epsilon` a uniformly random legal move.
pub(crate) fn pick(
    rules: &Ruleset,
    state: &State,
    policy: Policy,
    list: &MoveList,
    rng: &mut dyn RngCore,
) -> Option<Move> {
    if rng.random::<f32>() < policy.epsilon {
        return state.random_move(rules, |n| rng.random_range(0..n));
    }
    match list.len() {
        0 => None,
        1 => list.first().copied(),
        _ => {
            let actor = list[0].seat;
            let sit = Situation::from_state(rules.options, state, actor);
            let kinds = list.iter().filter(|m| m.seat == actor).map(|m| &m.kind);
            sit.best(kinds).map(|kind| Move::new(actor, kind))
        }
    }
}

/// Actions between two looks at the decision's clock within one playout.
const CLOCK_EVERY: u32 = 32;

/// Plays `state` on to the end with `policy`; returns `seat`'s reward, or
/// `None` if the decision's time ran out first (a long playout is cut off
/// rather than let overrun the budget).
pub(crate) fn playout(
    rules: &Ruleset,
    state: &mut State,
    seat: Seat,
    policy: Policy,
    list: &mut MoveList,
    clock: &Clock,
    rng: &mut dyn RngCore,
) -> Option<f32> {
    let mut steps = 0;
    while state.phase() != Phase::Over && steps < policy.cap {
        steps += 1;
        if steps % CLOCK_EVERY == 0 && clock.expired() {
            return None;
        }
        match resolve_chance(rules, state, rng) {
            Some(true) => continue,
            Some(false) => {}
            None => break,
        }
        state.legal_moves_into(rules, list);
        let Some(mv) = pick(rules, state, policy, list, rng) else {
            break;
        };
        state.play_unchecked(rules, mv);
    }
    Some(reward(state, seat))
}

//! `ismcts`: single-observer information-set Monte Carlo tree search.
//! Every iteration takes the next sampled state consistent with the seat's
//! view and walks one shared tree of the seat's own decisions
//! ([`tree`]): at each of them it picks among the actions legal in that
//! state (the heuristic's best `candidates`) by UCB1 over availability,
//! the other seats and chance playing the playout policy in between. The
//! first untried action ends the walk, and a heuristic playout scores it.
//! Unlike `search`, which plays the heuristic after its first action, the
//! seat's later decisions are searched too.

mod tree;

use rand::RngCore;
use skit_engine::{MoveKind, MoveList, Phase, Ruleset, Seat, State, View};

use crate::bandit::candidates;
use crate::budget::Budget;
use crate::clock::Clock;
use crate::heuristic::Situation;
use crate::playout::{Policy, pick, playout, resolve_chance, reward};
use crate::worlds::Pool;
use crate::{Greedy, Strategy};

use tree::Tree;

/// Information-set Monte Carlo tree search over the seat's own decisions.
#[derive(Clone, Copy, Debug, Default)]
pub struct Ismcts {
    pub budget: Budget,
}

impl Ismcts {
    pub fn new(budget: Budget) -> Ismcts {
        Ismcts { budget }
    }
}

impl Strategy for Ismcts {
    fn name(&self) -> &'static str {
        "ismcts"
    }

    fn choose(&mut self, view: &View, rng: &mut dyn RngCore) -> Option<MoveKind> {
        if view.legal.len() <= 1 {
            return view.legal.first().copied();
        }
        let seat = view.seat?;
        let budget = self.budget;
        let clock = budget.start();
        let Some(mut pool) = Pool::new(view, budget.determinizations, rng) else {
            return Greedy::pick(view);
        };
        let root = candidates(
            Situation::from_view(view).as_ref(),
            view.legal.iter().copied(),
            budget.candidates,
        );
        if root.len() == 1 {
            return root.first().copied();
        }
        let rules = &view.rules;
        let mut tree = Tree::new();
        let mut list = MoveList::new();
        let mut path = Vec::new();
        for _ in 0..budget.playouts {
            if clock.expired() {
                break;
            }
            let mut state = pool.next(rng);
            path.clear();
            let mut node = 0;
            let mut kinds = root.clone();
            let result = loop {
                let (child, untried) = match tree.offer(node, &kinds) {
                    Some(child) => (child, true),
                    None => match tree.select(node, &kinds, budget.exploration) {
                        Some(child) => (child, false),
                        None => break Some(reward(&state, seat)),
                    },
                };
                path.push((node, child));
                let kind = tree.child(node, child).kind;
                if state
                    .play(rules, skit_engine::Move::new(seat, kind))
                    .is_err()
                {
                    break Some(0.0);
                }
                if untried {
                    break playout(
                        rules,
                        &mut state,
                        seat,
                        budget.policy,
                        &mut list,
                        &clock,
                        rng,
                    );
                }
                let legal = match advance(
                    rules,
                    &mut state,
                    seat,
                    budget.policy,
                    &mut list,
                    &clock,
                    rng,
                ) {
                    Some(legal) => legal,
                    None if clock.expired() => break None,
                    None => break Some(reward(&state, seat)),
                };
                node = tree.descend(node, child);
                // Ranking a deep node's actions costs more than a playout
                // step: the clock is read at every level of the walk.
                if clock.expired() {
                    break None;
                }
                let situation = Situation::from_state(rules.options, &state, seat);
                kinds = candidates(Some(&situation), legal, budget.candidates);
            };
            // A walk cut off by the clock is not counted.
            let Some(result) = result else {
                break;
            };
            tree.record(&path, result);
        }
        tree.best()
    }
}

/// Plays the policy for the others and chance until `seat` is first to act
/// with a choice; returns its legal actions then, `None` if the game ends
/// (or the policy's step cap is reached, or the clock runs out) first.
fn advance(
    rules: &Ruleset,
    state: &mut State,
    seat: Seat,
    policy: Policy,
    list: &mut MoveList,
    clock: &Clock,
    rng: &mut dyn RngCore,
) -> Option<Vec<MoveKind>> {
    for step in 1..=policy.cap {
        if state.phase() == Phase::Over || (step % 32 == 0 && clock.expired()) {
            return None;
        }
        if resolve_chance(rules, state, rng)? {
            continue;
        }
        state.legal_moves_into(rules, list);
        if list.first().is_some_and(|m| m.seat == seat) {
            let mine: Vec<MoveKind> = list
                .iter()
                .filter(|m| m.seat == seat)
                .map(|m| m.kind)
                .collect();
            if mine.len() > 1 {
                return Some(mine);
            }
        }
        let mv = pick(rules, state, policy, list, rng)?;
        state.play_unchecked(rules, mv);
    }
    None
}

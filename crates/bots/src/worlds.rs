//! Where the view-only searches get their sampled states: one call per
//! state, so the sampler behind it can change without touching a search.

use rand::RngCore;
use skit_engine::{State, View};

/// A full state consistent with `view` (the engine's sampler,
/// [`View::sample_worlds`]), or `None` when the view cannot be sampled (a
/// spectator's view, a game not started by a deal, or a view no tried deck
/// could reproduce).
pub(crate) fn sample_world(view: &View, rng: &mut dyn RngCore) -> Option<State> {
    let worlds = view.sample_worlds(1, rng.next_u64()).ok()?;
    worlds.first().map(|game| *game.state())
}

/// Sampled states drawn as a search needs them: a new one for each of the
/// first `limit` requests, then the same ones again in turn, so sampling
/// counts against the decision's time like the playouts do.
pub(crate) struct Pool<'v> {
    view: &'v View,
    limit: usize,
    states: Vec<State>,
    next: usize,
}

impl<'v> Pool<'v> {
    /// A pool holding its first state, or `None` if none can be sampled.
    pub(crate) fn new(view: &'v View, limit: usize, rng: &mut dyn RngCore) -> Option<Pool<'v>> {
        let first = sample_world(view, rng)?;
        Some(Pool {
            view,
            limit: limit.max(1),
            states: vec![first],
            next: 0,
        })
    }

    /// The next state to search.
    pub(crate) fn next(&mut self, rng: &mut dyn RngCore) -> State {
        if self.next >= self.states.len() && self.states.len() < self.limit {
            if let Some(state) = sample_world(self.view, rng) {
                self.states.push(state);
            } else {
                // This view resists sampling: make do with the states held.
                self.limit = self.states.len();
            }
        }
        let state = self.states[self.next % self.states.len()];
        self.next += 1;
        state
    }
}

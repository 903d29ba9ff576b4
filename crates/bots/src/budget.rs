//! How much work one decision may take; [`Clock`] enforces it.
//!
//! The limit is CPU time of the deciding thread (`CLOCK_THREAD_CPUTIME_ID`
//! through the `cpu-time` crate), not wall time: a decision gets the same
//! amount of computation on a loaded machine as on an idle one, so a bot's
//! strength does not depend on what else runs. Where the thread clock is
//! unavailable the wall clock stands in.

use std::time::Duration;

use crate::clock::Clock;
use crate::playout::Policy;

/// The default limit per decision: 20 ms of one core's CPU time.
pub const DECISION_TIME: Duration = Duration::from_millis(20);

/// How much work one decision may take.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// CPU time per decision ([`DECISION_TIME`] by default); the search
    /// stops when it is spent. `None`: only `playouts` bounds the work, and
    /// choices depend only on the view and the generator.
    pub time: Option<Duration>,
    /// At most this many playouts per decision, spread over the sampled
    /// states.
    pub playouts: usize,
    /// At most this many sampled states per decision, used in turn.
    pub determinizations: usize,
    /// At most this many actions are searched: the heuristic's best.
    pub candidates: usize,
    /// UCB1 exploration constant.
    pub exploration: f32,
    pub policy: Policy,
}

impl Default for Budget {
    fn default() -> Budget {
        Budget {
            time: Some(DECISION_TIME),
            playouts: 100_000,
            determinizations: 24,
            candidates: 8,
            exploration: 0.7,
            policy: Policy::default(),
        }
    }
}

impl Budget {
    /// The default budget with another time limit.
    pub fn with_time(time: Duration) -> Budget {
        Budget {
            time: Some(time),
            ..Budget::default()
        }
    }

    /// Starts the clock of one decision.
    pub(crate) fn start(&self) -> Clock {
        Clock::start(self.time)
    }
}

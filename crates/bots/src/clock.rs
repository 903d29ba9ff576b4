//! The running clock of one decision: CPU time of the deciding thread,
//! wall time where the thread clock is unavailable (docs: [`crate::Budget`]).

use std::time::{Duration, Instant};

use cpu_time::ThreadTime;

/// The running clock of one decision (not `Send`: it reads this thread's
/// CPU time).
pub(crate) struct Clock {
    limit: Option<Duration>,
    cpu: Option<ThreadTime>,
    wall: Instant,
}

impl Clock {
    /// A clock started now, expiring after `limit` (never if `None`).
    pub(crate) fn start(limit: Option<Duration>) -> Clock {
        Clock {
            limit,
            cpu: ThreadTime::try_now().ok(),
            wall: Instant::now(),
        }
    }

    /// Time spent so far: this thread's CPU time, else wall time.
    pub(crate) fn spent(&self) -> Duration {
        match self.cpu.as_ref().and_then(|t| t.try_elapsed().ok()) {
            Some(cpu) => cpu,
            None => self.wall.elapsed(),
        }
    }

    /// Whether the decision's time is used up.
    pub(crate) fn expired(&self) -> bool {
        self.limit.is_some_and(|limit| self.spent() >= limit)
    }
}

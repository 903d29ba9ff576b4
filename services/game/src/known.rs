//! The newest version of a game this instance knows of, and the wake-ups of
//! whoever waits for it to grow (long polls, WatchGame's publishers). The
//! channel is made for the first waiter only: most cached games have none,
//! and a `watch` channel costs a few hundred bytes.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

use tokio::sync::watch;

#[derive(Debug, Default)]
pub struct Known {
    version: AtomicU64,
    waiters: OnceLock<watch::Sender<u64>>,
}

impl Known {
    pub fn get(&self) -> u64 {
        self.version.load(Ordering::SeqCst)
    }

    /// Raises the version to `seq` (never lowers it), waking waiters.
    pub fn raise(&self, seq: u64) {
        // Raised before the channel is looked at, and the channel made
        // before a waiter reads the version: a waiter that missed this
        // raise when it looked is woken by it.
        if self.version.fetch_max(seq, Ordering::SeqCst) < seq
            && let Some(waiters) = self.waiters.get()
        {
            waiters.send_if_modified(|v| {
                let grew = seq > *v;
                if grew {
                    *v = seq;
                }
                grew
            });
        }
    }

    /// Changes whenever the version grows.
    pub fn subscribe(&self) -> watch::Receiver<u64> {
        self.waiters
            .get_or_init(|| watch::channel(self.get()).0)
            .subscribe()
    }

    /// Whether anyone waits.
    pub fn waited_on(&self) -> bool {
        self.waiters.get().is_some_and(|w| w.receiver_count() > 0)
    }
}

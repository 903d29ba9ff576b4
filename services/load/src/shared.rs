//! What the workers of one run share: the signals that stop them, and
//! their counters.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex as SyncMutex, PoisonError};

use tokio::sync::{Mutex, watch};

use crate::report::Latencies;
use crate::retry::Sheds;

/// Errors printed one by one; the rest are only counted.
const PRINTED_ERRORS: u64 = 20;

/// Shared counters of one run.
pub struct Shared {
    /// True once no new move is to be started; calls waiting to be sent
    /// again give up.
    pub stop: watch::Sender<bool>,
    /// True once calls still in flight are dropped.
    pub drop_calls: watch::Sender<bool>,
    pub moves: AtomicU64,
    pub views: AtomicU64,
    pub games_finished: AtomicU64,
    pub errors: AtomicU64,
    /// Errors by gRPC code.
    error_codes: SyncMutex<BTreeMap<String, u64>>,
    pub sheds: Sheds,
    pub latencies: Mutex<Latencies>,
}

impl Shared {
    pub fn new() -> Self {
        Self {
            stop: watch::channel(false).0,
            drop_calls: watch::channel(false).0,
            moves: AtomicU64::new(0),
            views: AtomicU64::new(0),
            games_finished: AtomicU64::new(0),
            errors: AtomicU64::new(0),
            error_codes: SyncMutex::default(),
            sheds: Sheds::default(),
            latencies: Mutex::default(),
        }
    }

    pub fn stopped(&self) -> bool {
        *self.stop.borrow()
    }

    pub fn error(&self, status: &tonic::Status) {
        let n = self.errors.fetch_add(1, Ordering::Relaxed);
        if n < PRINTED_ERRORS {
            eprintln!("error: {} {}", status.code(), status.message());
        }
        let mut codes = self
            .error_codes
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        *codes.entry(format!("{:?}", status.code())).or_default() += 1;
    }

    /// The errors by gRPC code so far.
    pub fn error_codes(&self) -> BTreeMap<String, u64> {
        self.error_codes
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

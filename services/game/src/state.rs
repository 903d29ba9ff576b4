//! What every handler shares: the store, the live game cache and limits.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use skit_store::Store;

use crate::config::Config;
use crate::games::Games;

#[derive(Debug, Clone)]
pub struct AppState {
    pub(crate) store: Store,
    pub(crate) games: Arc<Games>,
    pub(crate) long_poll_cap: Duration,
    pub(crate) max_request_bytes: usize,
    /// The task following the store's append notices, stopped with the server.
    pub(crate) follower: Arc<Mutex<Option<tokio::task::AbortHandle>>>,
    /// The shortest clock limit a game may set.
    pub(crate) clock_min_limit: Duration,
    /// Wakes the timeout task: this instance stored a new deadline.
    pub(crate) clock_wake: Arc<tokio::sync::Notify>,
    /// The timeout task, stopped with the server.
    pub(crate) timeouts: Arc<Mutex<Option<tokio::task::AbortHandle>>>,
}

impl AppState {
    pub fn new(store: Store, config: &Config) -> Self {
        Self {
            games: Arc::new(Games::new(store.clone())),
            store,
            long_poll_cap: config.long_poll_cap(),
            max_request_bytes: config.max_request_bytes,
            follower: Arc::default(),
            clock_min_limit: config.clock_min_limit(),
            clock_wake: Arc::default(),
            timeouts: Arc::default(),
        }
    }

    pub(crate) fn stop_following(&self) {
        if let Some(task) = self
            .follower
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
        {
            task.abort();
        }
        if let Some(task) = self
            .timeouts
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
        {
            task.abort();
        }
    }
}

//! What every handler shares: the store, the live game cache and limits.

use std::sync::Arc;
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
}

impl AppState {
    pub fn new(store: Store, config: &Config) -> Self {
        Self {
            games: Arc::new(Games::new(store.clone())),
            store,
            long_poll_cap: config.long_poll_cap(),
            max_request_bytes: config.max_request_bytes,
        }
    }
}

//! What every handler shares: the store, the live game cache and limits.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use skit_store::{GroupCommit, NewEvent, Store, StoredEvent};

use crate::auth::Authenticator;
use crate::config::Config;
use crate::games::Games;

#[derive(Debug, Clone)]
pub struct AppState {
    pub(crate) store: Store,
    /// Bearer tokens to accounts, cached.
    pub(crate) auth: Authenticator,
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
    /// Appends go through group commit when configured.
    pub(crate) group_commit: Option<GroupCommit>,
}

impl AppState {
    pub fn new(store: Store, config: &Config) -> Self {
        let group_commit = config.group_commit.then(|| {
            GroupCommit::start(
                store.clone(),
                config.group_committers,
                skit_store::DEFAULT_MAX_BATCH,
            )
        });
        Self {
            games: Arc::new(Games::new(store.clone())),
            auth: Authenticator::new(store.clone()),
            store,
            long_poll_cap: config.long_poll_cap(),
            max_request_bytes: config.max_request_bytes,
            follower: Arc::default(),
            clock_min_limit: config.clock_min_limit(),
            clock_wake: Arc::default(),
            timeouts: Arc::default(),
            group_commit,
        }
    }

    /// Appends a game's events: through group commit if configured, else
    /// as one commit of their own. Answers as [`Store::append`].
    pub(crate) async fn append(
        &self,
        game_id: skit_store::GameId,
        expected_seq: u64,
        events: Vec<NewEvent>,
    ) -> Result<Vec<StoredEvent>, skit_store::Error> {
        match &self.group_commit {
            Some(group) => group.append(game_id, expected_seq, events).await,
            None => self.store.append(game_id, expected_seq, &events).await,
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

//! What every handler shares: the store, the live game cache and limits.

use std::collections::HashSet;
use std::future::Future;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use skit_store::{GameId, GameQuotas, GroupCommit, NewEvent, Store, StoredEvent, ToAct};
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;

use crate::auth::Authenticator;
use crate::config::Config;
use crate::games::Games;
use crate::jwt::JwtVerifier;

#[derive(Debug, Clone)]
pub struct AppState {
    pub(crate) store: Store,
    /// Bearer tokens to accounts, cached.
    pub(crate) auth: Authenticator,
    /// How long issued credentials live.
    pub(crate) lifetimes: crate::config::Lifetimes,
    pub(crate) games: Arc<Games>,
    pub(crate) long_poll_cap: Duration,
    /// The background tasks (following the store's append notices,
    /// applying run-out clocks, evicting idle games, rating recovery),
    /// stopped and joined with the server.
    pub(crate) background: Arc<Mutex<JoinSet<()>>>,
    /// The shortest clock limit a game may set.
    pub(crate) clock_min_limit: Duration,
    /// Wakes the timeout task: this instance stored a new deadline.
    pub(crate) clock_wake: Arc<tokio::sync::Notify>,
    /// Appends queue here for the committers: several games' moves share a
    /// commit under group commit, else each move commits alone.
    pub(crate) appends: GroupCommit,
    /// Ended games whose mark or rating update failed, for
    /// `rating_jobs::retry_failed`.
    pub(crate) unrated: Arc<Mutex<HashSet<GameId>>>,
    /// What one account that is neither the operator nor a house bot may
    /// hold and create.
    pub(crate) quotas: GameQuotas,
    /// Cancelled when the instance starts shutting down: long polls answer
    /// and WatchGame streams end at once, so their clients reconnect to
    /// another instance, while calls in flight finish.
    pub(crate) draining: CancellationToken,
}

impl AppState {
    /// `jwt`: the verifier of the identity provider's JWTs, if one is
    /// configured.
    pub fn new(store: Store, config: &Config, jwt: Option<JwtVerifier>) -> Self {
        let appends = match config.group_commit {
            true => GroupCommit::start(
                store.clone(),
                config.group_committers,
                skit_store::DEFAULT_MAX_BATCH,
            ),
            // Batches of one: each move its own commit, written by
            // committers that keep their connections (a pooled connection
            // costs two more round trips per move, sqlx's pings).
            false => GroupCommit::start(store.clone(), store.solo_writers(), 1),
        };
        Self {
            games: Arc::new(Games::new(store.clone())),
            auth: Authenticator::new(store.clone(), config.revocation_poll(), jwt),
            lifetimes: config.token_lifetimes(),
            store,
            long_poll_cap: config.long_poll_cap(),
            background: Arc::default(),
            clock_min_limit: config.clock_min_limit(),
            clock_wake: Arc::default(),
            appends,
            unrated: Arc::default(),
            quotas: GameQuotas {
                open_games: (config.quota_open_games > 0).then_some(config.quota_open_games),
                games_per_hour: (config.quota_games_per_hour > 0)
                    .then_some(config.quota_games_per_hour),
                bot_games_per_day: (config.quota_bot_games_per_day > 0)
                    .then_some(config.quota_bot_games_per_day),
            },
            draining: CancellationToken::new(),
        }
    }

    /// Appends a game's events with who may act after them, answered once
    /// they are committed; answers as [`skit_store::Store::append`].
    pub(crate) async fn append(
        &self,
        game_id: skit_store::GameId,
        expected_seq: u64,
        events: Vec<NewEvent>,
        to_act: Option<ToAct>,
    ) -> Result<Vec<StoredEvent>, skit_store::Error> {
        self.appends
            .append(game_id, expected_seq, events, to_act)
            .await
    }

    /// Runs `task` in the background until [`Self::stop_background`].
    pub(crate) fn spawn_background(&self, task: impl Future<Output = ()> + Send + 'static) {
        self.background
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .spawn(task);
    }

    /// Stops every background task and waits until each has ended, so
    /// nothing of theirs runs (or holds the store) once this returns.
    pub(crate) async fn stop_background(&self) {
        let mut tasks = std::mem::take(
            &mut *self
                .background
                .lock()
                .unwrap_or_else(PoisonError::into_inner),
        );
        tasks.abort_all();
        while tasks.join_next().await.is_some() {}
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use skit_store::Store;

    use super::AppState;
    use crate::config::Config;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn stopping_the_background_waits_until_every_task_has_ended() {
        // Arrange: a task that would run for ever, holding a resource.
        let dir = tempfile::tempdir().expect("a temp dir");
        let url = format!("sqlite://{}?mode=rwc", dir.path().join("bg.db").display());
        let store = Store::connect(&url).await.expect("the database");
        let state = AppState::new(store.clone(), &Config::default(), None);
        let held = Arc::new(());
        let (started, running) = tokio::sync::oneshot::channel();
        let resource = held.clone();
        state.spawn_background(async move {
            let _resource = resource;
            let _ = started.send(());
            std::future::pending::<()>().await;
        });
        running.await.expect("the task started");

        // Act
        state.stop_background().await;

        // Assert: the task is gone, and with it what it held.
        assert_eq!(Arc::strong_count(&held), 1, "the task still holds it");
        store.shutdown().await;
    }
}

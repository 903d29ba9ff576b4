//! The live game cache: game id -> the game in memory behind a per-game
//! async mutex, so a move costs O(1) instead of a replay and two moves for
//! one game on one instance are applied in order. Across instances the
//! store's optimistic concurrency decides; this cache only follows the log:
//! a miss (or a restart) replays it, a notice that the log grew makes the
//! next lock catch up from the last applied event.
//!
//! The map from ids to games is sharded ([`DashMap`]), so looking up one
//! game never waits for a lookup of another on another core; each game's
//! own mutex is held only by calls about that game.
//!
//! A game nobody has used for a while leaves the cache
//! ([`Games::evict_idle`], run by [`evict_idle_games`]), so memory follows
//! the games in play, not every game the instance ever served; its next
//! use replays it again.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use dashmap::DashMap;
use skit_api::ApiError;
use skit_store::{GameId, Store};
use tokio::sync::{OwnedMappedMutexGuard, OwnedMutexGuard, watch};

use crate::cached::{Cached, RulesMessages};
use crate::error::store_error;
use crate::feed::{Feeds, Frames, Publisher, Viewer};
use crate::known::Known;
use crate::live::Live;
use crate::metrics;
use crate::rated;

/// A locked, loaded, caught-up game.
pub type Locked = OwnedMappedMutexGuard<Option<Cached>, Cached>;

#[derive(Debug)]
struct Slot {
    live: Arc<tokio::sync::Mutex<Option<Cached>>>,
    /// The newest event seq this instance knows of; watchers wait on it.
    latest: Known,
    /// When the game was last asked for (milliseconds since `Games::epoch`).
    touched: AtomicU64,
    /// The publishers of its views to WatchGame streams.
    feeds: Feeds,
    /// The [`Games::missed`] count the cached game was last caught up at:
    /// below the current one, its next use reads the log first.
    checked: AtomicU64,
}

#[derive(Debug)]
pub struct Games {
    store: Store,
    slots: DashMap<GameId, Arc<Slot>>,
    epoch: Instant,
    rules_messages: RulesMessages,
    /// How many times append notices were missed ([`Games::notices_missed`]).
    missed: AtomicU64,
}

impl Games {
    pub fn new(store: Store) -> Self {
        Self {
            store,
            slots: DashMap::new(),
            epoch: Instant::now(),
            rules_messages: RulesMessages::default(),
            missed: AtomicU64::new(0),
        }
    }

    fn now_ms(&self) -> u64 {
        u64::try_from(self.epoch.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    fn slot(&self, id: GameId) -> Arc<Slot> {
        let now = self.now_ms();
        // Cloned under the shard's lock: eviction sees it in use.
        let slot = self
            .slots
            .entry(id)
            .or_insert_with(|| {
                Arc::new(Slot {
                    live: Arc::new(tokio::sync::Mutex::new(None)),
                    latest: Known::default(),
                    touched: AtomicU64::new(now),
                    feeds: Feeds::default(),
                    checked: AtomicU64::new(0),
                })
            })
            .clone();
        slot.touched.store(now, Ordering::Relaxed);
        slot
    }

    /// Drops from the cache every game unused for `idle`: not asked for
    /// since, not locked and not watched (a long poll or a WatchGame stream
    /// keeps its game). Returns how many left. A dropped game's next use
    /// loads it from the store again, so nothing is lost.
    pub fn evict_idle(&self, idle: Duration) -> usize {
        let idle = u64::try_from(idle.as_millis()).unwrap_or(u64::MAX);
        let now = self.now_ms();
        let mut evicted = 0;
        // Under its shard's lock nobody can take a new handle to a slot,
        // and every use holds one (`slot`) until it holds the game's lock.
        self.slots.retain(|_, slot| {
            let in_use = Arc::strong_count(slot) > 1
                || Arc::strong_count(&slot.live) > 1
                || slot.latest.waited_on()
                || !slot.feeds.is_empty()
                || now.saturating_sub(slot.touched.load(Ordering::Relaxed)) < idle;
            if in_use {
                return true;
            }
            match slot.live.try_lock() {
                Ok(live) => {
                    if live.is_some() {
                        metrics::game_uncached();
                    }
                    evicted += 1;
                    false
                }
                Err(_) => true,
            }
        });
        evicted
    }

    /// Locks the game, loading it on a miss and catching up with any
    /// append this instance has heard of. NOT_FOUND for an unknown game.
    pub async fn lock(&self, id: GameId) -> Result<Locked, ApiError> {
        let slot = self.slot(id);
        let mut guard = slot.live.clone().lock_owned().await;
        // Read before the log is: notices missed while it is read make the
        // next use read it again.
        let missed = self.missed.load(Ordering::Acquire);
        match guard.as_mut() {
            None => {
                let live = self.load(id).await?;
                let rules = self.rules_messages.get(live.game.rules());
                *guard = Some(Cached::new(live, rules));
                metrics::game_cached();
            }
            Some(live)
                if slot.latest.get() > live.version
                    || slot.checked.load(Ordering::Acquire) < missed =>
            {
                self.catch_up(live).await?;
            }
            Some(_) => {}
        }
        slot.checked.fetch_max(missed, Ordering::AcqRel);
        if let Some(Cached { live, ratings, .. }) = guard.as_mut() {
            rated::refresh(&self.store, live, ratings)
                .await
                .map_err(store_error)?;
        }
        let version = guard.as_ref().map_or(0, |l| l.version);
        slot.latest.raise(version);
        OwnedMutexGuard::try_map(guard, Option::as_mut)
            .map_err(|_| ApiError::invariant("a game slot empty right after loading"))
    }

    /// [`Games::lock`], caught up from the log first when this instance
    /// has not heard of `version` yet: a version a client was told of by
    /// another instance (read-your-writes), or a seat taken there.
    pub async fn lock_at(&self, id: GameId, version: Option<u64>) -> Result<Locked, ApiError> {
        let mut live = self.lock(id).await?;
        if version.is_some_and(|v| live.version < v) {
            self.catch_up_known(&mut live).await?;
        }
        Ok(live)
    }

    /// [`Games::catch_up`], then tells the game's watchers of the version.
    pub async fn catch_up_known(&self, live: &mut Locked) -> Result<(), ApiError> {
        self.catch_up(live).await?;
        self.notice(live.id, live.version);
        Ok(())
    }

    async fn load(&self, id: GameId) -> Result<Live, ApiError> {
        let row = self
            .store
            .game(id)
            .await
            .map_err(store_error)?
            .ok_or_else(|| ApiError::not_found(format!("no game {id}")))?;
        let events = self.store.load_events(id, 0).await.map_err(store_error)?;
        Live::replay(&row, &events).map_err(|e| ApiError::internal("cannot replay game", &e))
    }

    /// Applies the events appended since `live.version`.
    pub async fn catch_up(&self, live: &mut Live) -> Result<(), ApiError> {
        let events = self
            .store
            .load_events(live.id, live.version + 1)
            .await
            .map_err(store_error)?;
        for event in &events {
            live.apply_event(event)
                .map_err(|e| ApiError::internal("cannot apply stored event", &e))?;
        }
        Ok(())
    }

    /// The game's log grew to `seq` (a store notice, or our own append).
    pub fn notice(&self, id: GameId, seq: u64) {
        let slot = self.slots.get(&id).map(|slot| slot.clone());
        if let Some(slot) = slot {
            slot.latest.raise(seq);
        }
    }

    /// After missed notices: every cached game reads the log on its next
    /// use, and those someone waits on (a long poll, a WatchGame stream)
    /// ask the store where they are now, so their waiters wake. One query
    /// per watched game, not per cached game: a lagging instance with
    /// 100,000 games in memory does not stop to read them all.
    pub async fn notices_missed(&self) {
        self.missed.fetch_add(1, Ordering::AcqRel);
        let ids: Vec<GameId> = self
            .slots
            .iter()
            .filter(|slot| slot.latest.waited_on() || !slot.feeds.is_empty())
            .map(|slot| *slot.key())
            .collect();
        for id in ids {
            match self.store.last_seq(id).await {
                Ok(Some(seq)) => self.notice(id, seq),
                Ok(None) => {}
                Err(error) => tracing::warn!(%error, game_id = %id, "cannot refresh game"),
            }
        }
    }

    /// Changes whenever the game's known version grows.
    pub fn watch(&self, id: GameId) -> watch::Receiver<u64> {
        self.slot(id).latest.subscribe()
    }

    /// A receiver of `viewer`'s frames of the game (`feed`); `start` runs
    /// their publisher, from the version known now, if none runs.
    pub fn subscribe_frames(
        &self,
        id: GameId,
        viewer: Viewer,
        start: impl FnOnce(Publisher, u64),
    ) -> Frames {
        let slot = self.slot(id);
        // Frames follow on from what the cache knows now, at or before
        // anything a watcher subscribing now has seen.
        slot.feeds
            .subscribe(viewer, |publisher| start(publisher, slot.latest.get()))
    }

    /// Stops `publisher` if nobody watches (or `always`); whether it stopped.
    pub fn retire(&self, id: GameId, viewer: Viewer, publisher: &Publisher, always: bool) -> bool {
        self.slot(id).feeds.retire(viewer, publisher, always)
    }
}

/// Runs [`Games::evict_idle`] every half `idle` (at most every minute),
/// until aborted.
pub async fn evict_idle_games(games: Arc<Games>, idle: Duration) {
    let every = (idle / 2).clamp(Duration::from_millis(10), Duration::from_secs(60));
    let mut ticks = tokio::time::interval(every);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        ticks.tick().await;
        let evicted = games.evict_idle(idle);
        if evicted > 0 {
            tracing::debug!(evicted, "idle games left the cache");
        }
    }
}

/// Forwards the store's append notices (from every instance) to the cache
/// until the store closes.
pub async fn follow_notices(store: Store, games: Arc<Games>) {
    let mut notices = store.subscribe();
    loop {
        match notices.recv().await {
            Ok(notice) => games.notice(notice.game_id, notice.seq),
            Err(tokio::sync::broadcast::error::RecvError::Lagged(missed)) => {
                tracing::warn!(
                    missed,
                    "missed append notices; cached games read the log on their next use"
                );
                games.notices_missed().await;
            }
            Err(tokio::sync::broadcast::error::RecvError::Closed) => return,
        }
    }
}

#[cfg(test)]
mod tests;

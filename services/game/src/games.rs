//! The live game cache: game id -> the game in memory behind a per-game
//! async mutex, so a move costs O(1) instead of a replay and two moves for
//! one game on one instance are applied in order. Across instances the
//! store's optimistic concurrency decides; this cache only follows the log:
//! a miss (or a restart) replays it, a notice that the log grew makes the
//! next lock catch up from the last applied event.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use skit_store::{GameId, Store};
use tokio::sync::{OwnedMappedMutexGuard, OwnedMutexGuard, watch};

use crate::error::ApiError;
use crate::live::Live;

/// A locked, loaded, caught-up game.
pub type Locked = OwnedMappedMutexGuard<Option<Live>, Live>;

#[derive(Debug)]
struct Slot {
    live: Arc<tokio::sync::Mutex<Option<Live>>>,
    /// The newest event seq this instance knows of; watchers wait on it.
    latest: watch::Sender<u64>,
}

#[derive(Debug)]
pub struct Games {
    store: Store,
    slots: Mutex<HashMap<GameId, Arc<Slot>>>,
}

impl Games {
    pub fn new(store: Store) -> Self {
        Self {
            store,
            slots: Mutex::new(HashMap::new()),
        }
    }

    fn slot(&self, id: GameId) -> Arc<Slot> {
        let mut slots = self.slots.lock().unwrap_or_else(PoisonError::into_inner);
        slots
            .entry(id)
            .or_insert_with(|| {
                Arc::new(Slot {
                    live: Arc::new(tokio::sync::Mutex::new(None)),
                    latest: watch::channel(0).0,
                })
            })
            .clone()
    }

    /// Locks the game, loading it on a miss and catching up with any
    /// append this instance has heard of. NOT_FOUND for an unknown game.
    pub async fn lock(&self, id: GameId) -> Result<Locked, ApiError> {
        let slot = self.slot(id);
        let mut guard = slot.live.clone().lock_owned().await;
        match guard.as_mut() {
            None => {
                *guard = Some(self.load(id).await?);
                skit_gateway::metrics::live_game_started();
            }
            Some(live) if *slot.latest.borrow() > live.version => {
                self.catch_up(live).await?;
            }
            Some(_) => {}
        }
        if let Some(live) = guard.as_mut() {
            crate::rated::refresh(&self.store, live).await?;
        }
        let version = guard.as_ref().map_or(0, |l| l.version);
        slot.latest.send_if_modified(|v| raise(v, version));
        OwnedMutexGuard::try_map(guard, Option::as_mut).map_err(|_| ApiError::Internal)
    }

    async fn load(&self, id: GameId) -> Result<Live, ApiError> {
        let row = self
            .store
            .game(id)
            .await?
            .ok_or_else(|| ApiError::NotFound(format!("no game {id}")))?;
        let events = self.store.load_events(id, 0).await?;
        Live::replay(&row, &events).map_err(|e| ApiError::internal("cannot replay game", &e))
    }

    /// Applies the events appended since `live.version`.
    pub async fn catch_up(&self, live: &mut Live) -> Result<(), ApiError> {
        let events = self.store.load_events(live.id, live.version + 1).await?;
        for event in &events {
            live.apply_event(event)
                .map_err(|e| ApiError::internal("cannot apply stored event", &e))?;
        }
        Ok(())
    }

    /// The game's log grew to `seq` (a store notice, or our own append).
    pub fn notice(&self, id: GameId, seq: u64) {
        let slot = self
            .slots
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&id)
            .cloned();
        if let Some(slot) = slot {
            slot.latest.send_if_modified(|v| raise(v, seq));
        }
    }

    /// After missed notices: asks the store where every cached game is.
    pub async fn refresh_all(&self) {
        let ids: Vec<GameId> = self
            .slots
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .keys()
            .copied()
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
}

fn raise(current: &mut u64, seq: u64) -> bool {
    let grew = seq > *current;
    if grew {
        *current = seq;
    }
    grew
}

/// Forwards the store's append notices (from every instance) to the cache
/// until the store closes.
pub async fn follow_notices(store: Store, games: Arc<Games>) {
    let mut notices = store.subscribe();
    loop {
        match notices.recv().await {
            Ok(notice) => games.notice(notice.game_id, notice.seq),
            Err(tokio::sync::broadcast::error::RecvError::Lagged(missed)) => {
                tracing::warn!(missed, "missed append notices; refreshing cached games");
                games.refresh_all().await;
            }
            Err(tokio::sync::broadcast::error::RecvError::Closed) => return,
        }
    }
}

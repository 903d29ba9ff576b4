//! The rating jobs: the hook every finished game passes through, trying
//! again an update a database error refused, and rating the games a crash
//! left unrated. They need the service's state; the update itself is
//! `rated`'s.

use std::collections::HashSet;
use std::sync::{MutexGuard, PoisonError};
use std::time::Duration;

use skit_store::GameId;

use crate::cached::Cached;
use crate::rated;
use crate::state::AppState;

/// How many interrupted games one recovery pass rates.
const RECOVERY_BATCH: u32 = 1000;

/// The hook for a game that just ended: applies its rating update if it is
/// rated and refreshes the cached ratings. Failures are logged, not
/// returned: the game's end is stored, and [`retry_failed`] tries its
/// update again (after a crash, [`recover`] does).
#[tracing::instrument(skip_all, fields(game_id = %cached.id))]
pub async fn on_game_over(state: &AppState, cached: &mut Cached) {
    let Cached { live, ratings, .. } = cached;
    if let Err(error) = rated::apply(&state.store, live).await {
        tracing::error!(%error, "cannot apply the game's rating update; will try again");
        unrated(state).insert(live.id);
        return;
    }
    if let Err(error) = rated::refresh(&state.store, live, ratings).await {
        tracing::warn!(%error, "cannot reload ratings after the game");
    }
}

/// The games whose update failed.
fn unrated(state: &AppState) -> MutexGuard<'_, HashSet<GameId>> {
    state.unrated.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Every `every`, tries again the rating updates that failed. Applying is
/// idempotent, so a game another instance rated meanwhile is a no-op.
pub async fn retry_failed(state: AppState, every: Duration) {
    loop {
        tokio::time::sleep(every).await;
        let ids: Vec<_> = unrated(&state).drain().collect();
        for id in ids {
            if !rate_finished(&state, id).await {
                unrated(&state).insert(id);
            }
        }
    }
}

/// Rates finished rated games whose update never happened (a crash between
/// a game's end and its update). Run at start-up; safe beside other
/// instances doing the same.
pub async fn recover(state: AppState) {
    let ids = match state.store.unrated_finished_games(RECOVERY_BATCH).await {
        Ok(ids) => ids,
        Err(error) => {
            tracing::warn!(%error, "cannot look for unrated games");
            return;
        }
    };
    for id in ids {
        rate_finished(&state, id).await;
    }
}

/// Loads finished game `id` and runs [`on_game_over`] on it; `false` if
/// the game could not be loaded.
async fn rate_finished(state: &AppState, id: GameId) -> bool {
    match state.games.lock(id).await {
        Ok(mut live) if live.is_over() => on_game_over(state, &mut live).await,
        Ok(_) => tracing::warn!(game_id = %id, "a finished game whose log has no end"),
        Err(error) => {
            tracing::warn!(%error, game_id = %id, "cannot load game");
            return false;
        }
    }
    true
}

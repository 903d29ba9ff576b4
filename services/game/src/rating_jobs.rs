//! What follows a game's end, however it ended: the hook every finished
//! game passes through (marking it over in the store, then its rating
//! update), trying again what a database error refused, and at start-up
//! finishing the games a crash left unmarked or unrated. They need the
//! service's state; the update itself is `rated`'s.

use std::collections::HashSet;
use std::sync::{MutexGuard, PoisonError};
use std::time::Duration;

use skit_store::GameId;

use crate::cached::Cached;
use crate::rated;
use crate::state::AppState;

/// How many interrupted games one recovery pass rates.
const RECOVERY_BATCH: u32 = 1000;

/// The hook for a game that just ended: marks it over (ListGames, rating
/// recovery and seasons read the mark), applies its rating update if it is
/// rated and refreshes the cached ratings. Failures are logged, not
/// returned: the game's end is stored in its log, and [`retry_failed`]
/// tries again (after a crash, [`recover`] does).
#[tracing::instrument(skip_all, fields(game_id = %cached.id))]
pub async fn on_game_over(state: &AppState, cached: &mut Cached) {
    if let Err(error) = state.store.finish_game(cached.id).await {
        tracing::error!(%error, "cannot mark the game over; will try again");
        unrated(state).insert(cached.id);
        return;
    }
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

/// The games whose mark or update failed.
fn unrated(state: &AppState) -> MutexGuard<'_, HashSet<GameId>> {
    state.unrated.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Every `every`, tries again the marks and rating updates that failed.
/// Both are idempotent, so a game another instance finished meanwhile is a
/// no-op.
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

/// Finishes what a crash interrupted: marks and rates games whose log has
/// ended but which are still marked active, then rates finished rated
/// games whose update never happened. Run at start-up; safe beside other
/// instances doing the same.
pub async fn recover(state: AppState) {
    // Endings stored without their mark: a crash between the last append
    // and the mark. Finishing them rates them too.
    match state.store.ended_unmarked_games(RECOVERY_BATCH).await {
        Ok(ids) => {
            for id in ids {
                rate_finished(&state, id).await;
            }
        }
        Err(error) => tracing::warn!(%error, "cannot look for unmarked endings"),
    }
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

/// Loads game `id` and, if its log has ended, runs [`on_game_over`] on it;
/// `false` if the game could not be loaded.
async fn rate_finished(state: &AppState, id: GameId) -> bool {
    match state.games.lock(id).await {
        Ok(mut live) if live.is_over() => on_game_over(state, &mut live).await,
        Ok(_) => tracing::debug!(game_id = %id, "the game's log has not ended"),
        Err(error) => {
            tracing::warn!(%error, game_id = %id, "cannot load game");
            return false;
        }
    }
    true
}

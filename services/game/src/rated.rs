//! Rated games: applying a finished game's rating update (once, from the
//! places views show), trying again one a database error refused,
//! recovering updates a crash interrupted, and the seated accounts'
//! ratings cached in the live game for views.

use std::collections::{HashMap, HashSet};
use std::sync::{MutexGuard, PoisonError};
use std::time::Duration;

use skit_store::{AccountId, GameId, Placed, Rating, Skill, Store};
use time::OffsetDateTime;

use crate::live::Live;
use crate::places;
use crate::rating_model;
use crate::state::AppState;

/// How many interrupted games one recovery pass rates.
const RECOVERY_BATCH: u32 = 1000;

/// The ratings of a live game's seated accounts under its ruleset key,
/// loaded with the game and refreshed after its end, so a view costs no
/// query.
#[derive(Debug, Clone, Default)]
pub struct SeatRatings {
    by_account: HashMap<i64, Rating>,
    /// Loaded after the game's own rating update.
    after_end: bool,
}

impl SeatRatings {
    pub fn get(&self, account_id: i64) -> Option<&Rating> {
        self.by_account.get(&account_id)
    }
}

/// A rating not stored yet: the model's start, no games.
pub fn starting(account_id: AccountId, ruleset_key: &str) -> Rating {
    Rating {
        account_id,
        ruleset_key: ruleset_key.to_owned(),
        skill: rating_model::START,
        games: 0,
        updated_at: OffsetDateTime::UNIX_EPOCH,
    }
}

/// Distinct accounts seated, in seat order.
fn accounts(live: &Live) -> Vec<AccountId> {
    let mut ids: Vec<AccountId> = Vec::new();
    for id in live.seats.iter().flatten().map(|h| AccountId(h.account_id)) {
        if !ids.contains(&id) {
            ids.push(id);
        }
    }
    ids
}

/// Loads the ratings the cache lacks: accounts seated since the last load,
/// and everyone's once the game is over. No query when nothing is missing.
pub async fn refresh(store: &Store, live: &mut Live) -> Result<(), skit_store::Error> {
    let over = live.is_over();
    let stale = over && !live.ratings.after_end;
    let wanted: Vec<AccountId> = accounts(live)
        .into_iter()
        .filter(|id| stale || !live.ratings.by_account.contains_key(&id.0))
        .collect();
    if wanted.is_empty() {
        return Ok(());
    }
    let key = live.game.rules().key();
    for id in wanted {
        let rating = store
            .rating(id, &key)
            .await?
            .unwrap_or_else(|| starting(id, &key));
        live.ratings.by_account.insert(id.0, rating);
    }
    // Another instance may finish the game and rate it moments after this
    // one sees the end: until the update is stored, look again next time.
    live.ratings.after_end = over && (!rateable(live) || store.game_rated(live.id).await?);
    Ok(())
}

/// The hook for a game that just ended: applies its rating update if it is
/// rated and refreshes the cached ratings. Failures are logged, not
/// returned: the game's end is stored, and [`retry_failed`] tries its
/// update again (after a crash, [`recover`] does).
#[tracing::instrument(skip_all, fields(game_id = %live.id))]
pub async fn on_game_over(state: &AppState, live: &mut Live) {
    if let Err(error) = apply(&state.store, live).await {
        tracing::error!(%error, "cannot apply the game's rating update; will try again");
        unrated(state).insert(live.id);
        return;
    }
    if let Err(error) = refresh(&state.store, live).await {
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

/// Applies the rating update of a finished rated game (a no-op if it was
/// applied before, or the game is unrated or has fewer than two accounts).
async fn apply(store: &Store, live: &Live) -> Result<(), skit_store::Error> {
    if !rateable(live) {
        return Ok(());
    }
    let placed = placed(live);
    let places: Vec<u32> = placed.iter().map(|p| p.place).collect();
    let model = |before: &[Rating]| {
        let skills: Vec<Skill> = before.iter().map(|r| r.skill).collect();
        rating_model::update(&skills, &places)
    };
    let key = live.game.rules().key();
    let applied = store
        .apply_ratings(live.id, &key, &placed, rating_model::START, model)
        .await?;
    if applied.is_some() {
        tracing::info!(ruleset_key = %key, players = placed.len(), "ratings updated");
    }
    Ok(())
}

/// Whether the game's end updates ratings: rated, two accounts or more.
fn rateable(live: &Live) -> bool {
    live.rated && accounts(live).len() >= 2
}

/// Each account's place (its best, should it hold several seats).
fn placed(live: &Live) -> Vec<Placed> {
    let places = places::of_live(live).places();
    let mut placed: Vec<Placed> = Vec::new();
    for (holder, &place) in live.seats.iter().zip(&places) {
        let Some(holder) = holder else { continue };
        let account_id = AccountId(holder.account_id);
        match placed.iter_mut().find(|p| p.account_id == account_id) {
            Some(p) => p.place = p.place.min(place),
            None => placed.push(Placed { account_id, place }),
        }
    }
    placed
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

//! Rated games, one game at a time: a finished game's rating update (once,
//! from the places views show) and the seated accounts' ratings kept for
//! views. What runs it for every finished game, retries and recovery
//! included, is `rating_jobs`.

use std::collections::{HashMap, HashSet};

use skit_store::{AccountId, Placed, Rating, Skill, Store};
use time::OffsetDateTime;

use crate::division_turns;
use crate::live::Live;
use crate::places;
use crate::rating_model;
use crate::seasons;

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
pub async fn refresh(
    store: &Store,
    live: &Live,
    ratings: &mut SeatRatings,
) -> Result<(), skit_store::Error> {
    let over = live.is_over();
    let stale = over && !ratings.after_end;
    let wanted: Vec<AccountId> = accounts(live)
        .into_iter()
        .filter(|id| stale || !ratings.by_account.contains_key(&id.0))
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
        ratings.by_account.insert(id.0, rating);
    }
    // Another instance may finish the game and rate it moments after this
    // one sees the end: until the update is stored, look again next time.
    ratings.after_end = over
        && (!rateable(live)
            || store.game_rated(live.id).await?
            || one_owner_twice(store, live).await?);
    Ok(())
}

/// Whether two seated accounts have one owner (an account and a bot it
/// runs, or two of its bots): such a game changes no rating, so nobody
/// gains rating from their own bots.
async fn one_owner_twice(store: &Store, live: &Live) -> Result<bool, skit_store::Error> {
    let mut owners = HashSet::new();
    for id in accounts(live) {
        let owner = store.account(id).await?.map_or(id, |a| a.owner_group());
        if !owners.insert(owner) {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Applies the rating update of a finished rated game (a no-op if it was
/// applied before, or the game is unrated or has fewer than two accounts).
pub async fn apply(store: &Store, live: &Live) -> Result<(), skit_store::Error> {
    if !rateable(live) {
        return Ok(());
    }
    if one_owner_twice(store, live).await? {
        tracing::info!("rating void: two seats of one owner");
        return Ok(());
    }
    let placed = placed(live);
    let places: Vec<u32> = placed.iter().map(|p| p.place).collect();
    let model = |before: &[Rating]| {
        let skills: Vec<Skill> = before.iter().map(|r| r.skill).collect();
        rating_model::update(&skills, &places)
    };
    let key = live.game.rules().key();
    // The seasons of the key running when the game ended count it too, in
    // the same transaction.
    let ended = match &live.ending {
        Some(ending) => ending.at,
        None => store
            .last_event_at(live.id)
            .await?
            .unwrap_or_else(OffsetDateTime::now_utc),
    };
    let running = store.seasons_at(&key, ended).await?;
    let tracks: Vec<_> = running
        .iter()
        .filter_map(|s| seasons::track(s, ended))
        .collect();
    let applied = store
        .apply_ratings_in_seasons(
            live.id,
            &key,
            &placed,
            rating_model::START,
            &tracks,
            &seasons::soft_reset,
            model,
        )
        .await?;
    if applied.is_some() {
        tracing::info!(ruleset_key = %key, players = placed.len(), seasons = tracks.len(), "ratings updated");
    }
    // Players new to a season's divisions enter them (again, harmlessly,
    // when a retry finds the ratings applied).
    let players: Vec<AccountId> = placed.iter().map(|p| p.account_id).collect();
    for season in &running {
        division_turns::after_game(store, season, ended, &players).await?;
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

//! When divisions' places are written: a period's places once, when it is
//! first needed after it begins (a read, a rated game, or the background
//! pass that keeps running seasons turned), each turn from the previous
//! period's stored places and ratings; and a player's entry into the
//! bottom tier with their first rated game of a period. Every step is
//! idempotent, so instances sharing a database may race and a crash loses
//! nothing: what is missing is written the next time it is needed.

use std::time::Duration;

use skit_store::{AccountId, Arrival, DivisionPlace, DivisionRules, Season, SeasonTrack, Store};
use time::OffsetDateTime;

use crate::divisions;
use crate::seasons::Schedule;

/// How far before a season's start a player's lifetime rating must last
/// have changed for them to be seeded into its first period, by that
/// rating as it stood at the start.
const SEED_WINDOW: time::Duration = time::Duration::days(30);

/// The track of `season`'s period at `at`, its places written; `None` if
/// the season has no divisions or no period then.
pub async fn turned(
    store: &Store,
    season: &Season,
    at: OffsetDateTime,
) -> Result<Option<SeasonTrack>, skit_store::Error> {
    let Some(rules) = season.divisions else {
        return Ok(None);
    };
    let schedule = Schedule::of(season);
    let Some((start, _)) = schedule.period(season, at) else {
        return Ok(None);
    };
    // Back to the last period turned (or the first), then forward.
    let mut unturned = Vec::new();
    let mut period = Some(start);
    while let Some(start) = period {
        let track = track(season, start);
        if store.division_turned(&track).await? {
            break;
        }
        period = previous(&schedule, season, start);
        unturned.push(track);
    }
    for track in unturned.into_iter().rev() {
        turn_into(store, season, &rules, &schedule, &track).await?;
    }
    Ok(Some(track(season, start)))
}

fn track(season: &Season, period_start: OffsetDateTime) -> SeasonTrack {
    SeasonTrack {
        season_id: season.id.clone(),
        period_start,
    }
}

/// The start of the period before the one starting at `start`.
fn previous(schedule: &Schedule, season: &Season, start: OffsetDateTime) -> Option<OffsetDateTime> {
    if start <= season.starts_at {
        return None;
    }
    schedule
        .period(season, start - time::Duration::SECOND)
        .map(|(previous, _)| previous)
}

/// Writes `track`'s places: seeded for the first period, else turned from
/// the previous one's.
async fn turn_into(
    store: &Store,
    season: &Season,
    rules: &DivisionRules,
    schedule: &Schedule,
    track: &SeasonTrack,
) -> Result<(), skit_store::Error> {
    let places = match previous(schedule, season, track.period_start) {
        None => {
            let since = season.starts_at - SEED_WINDOW;
            let players = store
                .ratings_as_of(&season.ruleset_key, since, season.starts_at)
                .await?;
            divisions::seed(rules, &players)
        }
        Some(start) => {
            let before = self::track(season, start);
            // Players rated then whose entry was never written enter now,
            // so the turn counts them.
            for account in store.division_unplaced(&before).await? {
                enter(store, rules, &before, account).await?;
            }
            divisions::turn(rules, &store.division_members(&before).await?)
        }
    };
    if store.write_division_turn(track, &places).await? {
        tracing::info!(
            season_id = %season.id,
            period_start = %track.period_start,
            players = places.len(),
            "division period turned"
        );
    }
    Ok(())
}

/// Places `account` in the bottom tier of `track`'s period unless it has
/// a place there.
async fn enter(
    store: &Store,
    rules: &DivisionRules,
    track: &SeasonTrack,
    account: AccountId,
) -> Result<(), skit_store::Error> {
    let sizes = store.cohort_sizes(track, rules.tiers).await?;
    let place = DivisionPlace {
        account_id: account,
        tier: rules.tiers,
        cohort: divisions::entry_cohort(rules, &sizes),
        arrival: Arrival::Entered,
        stepping_down: false,
    };
    store.enter_division(track, &place).await?;
    Ok(())
}

/// After a rated game of `season` ended at `at`: its players without a
/// place in that period enter the bottom tier.
pub async fn after_game(
    store: &Store,
    season: &Season,
    at: OffsetDateTime,
    players: &[AccountId],
) -> Result<(), skit_store::Error> {
    let (Some(rules), Some(track)) = (season.divisions, turned(store, season, at).await?) else {
        return Ok(());
    };
    for &account in players {
        if store.division_place(&track, account).await?.is_none() {
            enter(store, &rules, &track, account).await?;
        }
    }
    Ok(())
}

/// Every `every`, turns the divisions of every season whose period began
/// since, so a period's seeding and turn happen when it starts.
pub async fn keep_turning(store: Store, every: Duration) {
    loop {
        if let Err(error) = turn_running(&store).await {
            tracing::warn!(%error, "cannot turn divisions; will try again");
        }
        tokio::time::sleep(every).await;
    }
}

async fn turn_running(store: &Store) -> Result<(), skit_store::Error> {
    let now = OffsetDateTime::now_utc();
    for season in store.seasons(None).await? {
        if season.divisions.is_some() {
            turned(store, &season, now).await?;
        }
    }
    Ok(())
}

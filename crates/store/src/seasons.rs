//! Seasons: a ruleset key's rated games within a period count toward a
//! rating track of the period's own. The store keeps the seasons and the
//! tracks; which period a game falls in (a cron recurrence in a time zone)
//! is the service's to say, and it hands the periods to
//! [`Store::apply_ratings_in_seasons`] so a game's season updates are
//! written with its lifetime update, in one transaction.

use sqlx::FromRow;
use time::OffsetDateTime;
use uuid::Uuid;

use crate::error::is_unique_violation;
use crate::{AccountId, Error, Skill, Store, rows};

/// A stored season.
#[derive(Debug, Clone, PartialEq)]
pub struct Season {
    pub id: String,
    pub name: String,
    pub ruleset_key: String,
    pub starts_at: OffsetDateTime,
    pub ends_at: Option<OffsetDateTime>,
    /// A cron expression; empty: one period.
    pub recurrence: String,
    pub time_zone: String,
    /// Tiers within the season; none: a season without divisions.
    pub divisions: Option<DivisionRules>,
    pub created_by: AccountId,
    pub request_id: Option<String>,
    pub created_at: OffsetDateTime,
}

/// A season's divisions (docs/ratings.md, "Divisions"): how many tiers,
/// how many players a cohort holds, the shares of each cohort promoted
/// and relegated when a period turns, and the games within a period that
/// keep a player active.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DivisionRules {
    pub tiers: u32,
    pub cohort_size: u32,
    pub promote_percent: u32,
    pub relegate_percent: u32,
    pub min_games: u32,
}

/// What an operator creates.
#[derive(Debug, Clone, PartialEq)]
pub struct NewSeason {
    pub name: String,
    pub ruleset_key: String,
    pub starts_at: OffsetDateTime,
    pub ends_at: Option<OffsetDateTime>,
    pub recurrence: String,
    pub time_zone: String,
    pub divisions: Option<DivisionRules>,
    pub created_by: AccountId,
    pub request_id: Option<String>,
}

/// One period of one season a game counts toward.
#[derive(Debug, Clone, PartialEq)]
pub struct SeasonTrack {
    pub season_id: String,
    pub period_start: OffsetDateTime,
}

/// An account's rating in one period of a season.
#[derive(Debug, Clone, PartialEq)]
pub struct SeasonRating {
    pub account_id: AccountId,
    pub skill: Skill,
    /// Rated games in the period.
    pub games: u32,
}

/// A line of a period's standings: the rating and whose it is.
#[derive(Debug, Clone, PartialEq)]
pub struct SeasonStanding {
    pub rating: SeasonRating,
    pub name: String,
    pub bot: bool,
}

#[derive(Debug, FromRow)]
struct StandingRow {
    account_id: i64,
    mu: f64,
    sigma: f64,
    games: i32,
    name: String,
    kind: String,
}

/// What creating a season did.
#[derive(Debug, Clone, PartialEq)]
pub enum CreatedSeason {
    New(Season),
    /// The operator created one with this request id before: that one.
    Requested(Season),
}

macro_rules! select_seasons {
    ($filter:literal) => {
        concat!(
            "SELECT id, name, ruleset_key, starts_at, ends_at, recurrence, time_zone, \
             division_tiers, cohort_size, promote_percent, relegate_percent, min_games, \
             created_by, request_id, created_at FROM seasons ",
            $filter
        )
    };
}

const INSERT_SEASON: &str = "INSERT INTO seasons (id, name, ruleset_key, starts_at, ends_at, \
     recurrence, time_zone, created_by, request_id, created_at, \
     division_tiers, cohort_size, promote_percent, relegate_percent, min_games) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)";

/// Best first: the conservative rating, then more games, then the account.
const STANDINGS: &str = "SELECT r.account_id, r.mu, r.sigma, r.games, a.name, a.kind \
     FROM season_ratings r JOIN accounts a ON a.id = r.account_id \
     WHERE r.season_id = $1 AND r.period_start = $2 \
     ORDER BY r.mu - 3 * r.sigma DESC, r.games DESC, r.account_id LIMIT $3";

#[derive(Debug, FromRow)]
struct SeasonRow {
    id: String,
    name: String,
    ruleset_key: String,
    starts_at: OffsetDateTime,
    ends_at: Option<OffsetDateTime>,
    recurrence: String,
    time_zone: String,
    division_tiers: Option<i32>,
    cohort_size: i32,
    promote_percent: i32,
    relegate_percent: i32,
    min_games: i32,
    created_by: i64,
    request_id: Option<String>,
    created_at: OffsetDateTime,
}

/// A stored count; negative (never written) reads as 0.
fn count(n: i32) -> u32 {
    u32::try_from(n).unwrap_or(0)
}

impl From<SeasonRow> for Season {
    fn from(r: SeasonRow) -> Self {
        let divisions = r.division_tiers.map(|tiers| DivisionRules {
            tiers: count(tiers),
            cohort_size: count(r.cohort_size),
            promote_percent: count(r.promote_percent),
            relegate_percent: count(r.relegate_percent),
            min_games: count(r.min_games),
        });
        Self {
            id: r.id,
            name: r.name,
            ruleset_key: r.ruleset_key,
            starts_at: r.starts_at,
            ends_at: r.ends_at,
            recurrence: r.recurrence,
            time_zone: r.time_zone,
            divisions,
            created_by: AccountId(r.created_by),
            request_id: r.request_id,
            created_at: r.created_at,
        }
    }
}

#[derive(Debug, FromRow)]
pub(crate) struct SeasonRatingRow {
    account_id: i64,
    mu: f64,
    sigma: f64,
    games: i32,
}

impl TryFrom<SeasonRatingRow> for SeasonRating {
    type Error = Error;

    fn try_from(r: SeasonRatingRow) -> Result<Self, Error> {
        Ok(Self {
            account_id: AccountId(r.account_id),
            skill: Skill {
                mu: r.mu,
                sigma: r.sigma,
            },
            games: u32::try_from(r.games)
                .map_err(|_| Error::Corrupt(format!("season games {}", r.games)))?,
        })
    }
}

impl Store {
    /// Stores a new season, unless its creator already created one with
    /// the same request id.
    pub async fn create_season(&self, new: NewSeason) -> Result<CreatedSeason, Error> {
        if let Some(first) = self.requested_season(&new).await? {
            return Ok(CreatedSeason::Requested(first));
        }
        let id = Uuid::new_v4().hyphenated().to_string();
        let d = new.divisions;
        let int = |f: fn(&DivisionRules) -> u32| {
            d.as_ref()
                .map_or(0, |d| i32::try_from(f(d)).unwrap_or(i32::MAX))
        };
        let params = (
            &id,
            &new.name,
            &new.ruleset_key,
            new.starts_at,
            new.ends_at,
            &new.recurrence,
            &new.time_zone,
            new.created_by.0,
            new.request_id.as_deref(),
            rows::now(),
            d.map(|d| i32::try_from(d.tiers).unwrap_or(i32::MAX)),
            int(|d| d.cohort_size),
            int(|d| d.promote_percent),
            int(|d| d.relegate_percent),
            int(|d| d.min_games),
        );
        let inserted = {
            let _turn = self.db.write_turn().await;
            self.db.execute(INSERT_SEASON, params).await
        };
        match inserted {
            Ok(_) => {}
            Err(e) if is_unique_violation(&e) => {
                return match self.requested_season(&new).await? {
                    Some(first) => Ok(CreatedSeason::Requested(first)),
                    None => Err(e.into()),
                };
            }
            Err(e) => return Err(e.into()),
        }
        self.season(&id)
            .await?
            .map(CreatedSeason::New)
            .ok_or_else(|| Error::Corrupt(format!("season {id} vanished")))
    }

    async fn requested_season(&self, new: &NewSeason) -> Result<Option<Season>, Error> {
        let Some(request_id) = &new.request_id else {
            return Ok(None);
        };
        let sql = select_seasons!("WHERE created_by = $1 AND request_id = $2");
        let row: Option<SeasonRow> = self
            .db
            .fetch_optional(sql, (new.created_by.0, request_id.as_str()))
            .await?;
        Ok(row.map(Into::into))
    }

    pub async fn season(&self, id: &str) -> Result<Option<Season>, Error> {
        let row: Option<SeasonRow> = self
            .db
            .fetch_optional(select_seasons!("WHERE id = $1"), (id,))
            .await?;
        Ok(row.map(Into::into))
    }

    /// Every season (of `ruleset_key` if given), newest first.
    pub async fn seasons(&self, ruleset_key: Option<&str>) -> Result<Vec<Season>, Error> {
        let rows: Vec<SeasonRow> = match ruleset_key {
            Some(key) => {
                let sql = select_seasons!("WHERE ruleset_key = $1 ORDER BY created_at DESC, id");
                self.db.fetch_all(sql, (key,)).await?
            }
            None => {
                let sql = select_seasons!("ORDER BY created_at DESC, id");
                self.db.fetch_all(sql, ()).await?
            }
        };
        Ok(rows.into_iter().map(Into::into).collect())
    }

    /// The seasons of `ruleset_key` running at `at`: started, not ended.
    pub async fn seasons_at(
        &self,
        ruleset_key: &str,
        at: OffsetDateTime,
    ) -> Result<Vec<Season>, Error> {
        let sql = select_seasons!(
            "WHERE ruleset_key = $1 AND starts_at <= $2 AND (ends_at IS NULL OR ends_at > $2) \
             ORDER BY created_at, id"
        );
        let rows: Vec<SeasonRow> = self.db.fetch_all(sql, (ruleset_key, at)).await?;
        Ok(rows.into_iter().map(Into::into).collect())
    }

    /// One period's ratings, best first, at most `limit`.
    pub async fn season_standings(
        &self,
        track: &SeasonTrack,
        limit: u32,
    ) -> Result<Vec<SeasonStanding>, Error> {
        let params = (
            track.season_id.as_str(),
            track.period_start,
            i64::from(limit),
        );
        let rows: Vec<StandingRow> = self.db.fetch_all(STANDINGS, params).await?;
        rows.into_iter()
            .map(|r| {
                let rating = SeasonRatingRow {
                    account_id: r.account_id,
                    mu: r.mu,
                    sigma: r.sigma,
                    games: r.games,
                }
                .try_into()?;
                Ok(SeasonStanding {
                    rating,
                    name: r.name,
                    bot: r.kind == "bot",
                })
            })
            .collect()
    }

    /// When game `game_id`'s last event was written: its end, for a
    /// finished game.
    pub async fn last_event_at(
        &self,
        game_id: crate::GameId,
    ) -> Result<Option<OffsetDateTime>, Error> {
        let sql = "SELECT created_at FROM events WHERE game_id = $1 ORDER BY seq DESC LIMIT 1";
        let row: Option<(OffsetDateTime,)> =
            self.db.fetch_optional(sql, (game_id.to_string(),)).await?;
        Ok(row.map(|(at,)| at))
    }
}

//! Ratings: each account's skill (mu, sigma) per ruleset key, and the change
//! every rated game made to it. The store keeps numbers; the rating model
//! lives in the service, which hands [`Store::apply_ratings`] a function
//! from the ratings before a game to the ratings after it.

use sqlx::FromRow;
use time::OffsetDateTime;

use crate::rows::{parse_game_id, seat_from_db};
use crate::{AccountId, AccountKind, Error, GameId, Store, sql};

/// A skill estimate: the mean and its uncertainty.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Skill {
    pub mu: f64,
    pub sigma: f64,
}

impl Skill {
    /// `mu - 3 sigma`: what standings sort on.
    pub fn conservative(&self) -> f64 {
        self.mu - 3.0 * self.sigma
    }
}

/// An account's stored rating under one ruleset key.
#[derive(Debug, Clone, PartialEq)]
pub struct Rating {
    pub account_id: AccountId,
    pub ruleset_key: String,
    pub skill: Skill,
    /// Rated games played under the key.
    pub games: u32,
    pub updated_at: OffsetDateTime,
}

/// One rated game's effect on one account.
#[derive(Debug, Clone, PartialEq)]
pub struct RatingChange {
    pub game_id: GameId,
    pub account_id: AccountId,
    pub ruleset_key: String,
    /// 1-based; shared places repeat.
    pub place: u32,
    pub before: Skill,
    pub after: Skill,
    /// Rated games under the key after this one.
    pub games_after: u32,
    pub created_at: OffsetDateTime,
}

/// A leaderboard line: the rating and who holds it.
#[derive(Debug, Clone, PartialEq)]
pub struct Standing {
    pub rating: Rating,
    pub name: String,
    pub kind: AccountKind,
}

/// Every key of one account, in key order.
const RATINGS_OF_ACCOUNT: &str = "SELECT account_id, ruleset_key, mu, sigma, games, updated_at \
     FROM ratings WHERE account_id = $1 ORDER BY ruleset_key";

const LEADERBOARD: &str = "SELECT r.account_id, r.ruleset_key, r.mu, r.sigma, r.games, \
     r.updated_at, a.name, a.kind FROM ratings r JOIN accounts a ON a.id = r.account_id \
     WHERE r.ruleset_key = $1 AND r.games >= $2 \
     ORDER BY r.mu - 3 * r.sigma DESC, r.account_id LIMIT $3";

/// One account's changes (`$2` NULL: under every key), newest first. The
/// count of games after each change is the account's rated games under the
/// key up to and including that game.
const HISTORY: &str = "SELECT c.game_id, c.account_id, c.ruleset_key, c.place, c.mu_before, \
     c.sigma_before, c.mu_after, c.sigma_after, c.created_at, \
     (SELECT COUNT(*) FROM rating_changes p WHERE p.account_id = c.account_id \
      AND p.ruleset_key = c.ruleset_key \
      AND (p.created_at < c.created_at OR p.created_at = c.created_at AND p.game_id <= c.game_id)) \
      AS games_after \
     FROM rating_changes c WHERE c.account_id = $1 AND ($2 IS NULL OR c.ruleset_key = $2) \
     ORDER BY c.created_at DESC, c.game_id DESC LIMIT $3";

/// Finished rated games with two or more accounts seated, no two of one
/// owner (such a game changes no rating), and no change recorded yet:
/// games whose rating update a crash interrupted.
const UNRATED_FINISHED: &str = "SELECT g.id FROM games g \
     WHERE g.rated AND g.status = 'over' \
     AND NOT EXISTS (SELECT 1 FROM rating_changes c WHERE c.game_id = g.id) \
     AND (SELECT COUNT(DISTINCT s.account_id) FROM seats s WHERE s.game_id = g.id) >= 2 \
     AND (SELECT COUNT(DISTINCT s.account_id) FROM seats s WHERE s.game_id = g.id) = \
         (SELECT COUNT(DISTINCT COALESCE(a.owner_id, a.id)) FROM seats s \
          JOIN accounts a ON a.id = s.account_id WHERE s.game_id = g.id) \
     ORDER BY g.finished_at, g.id LIMIT $1";

#[derive(Debug, FromRow)]
pub(crate) struct RatingRow {
    account_id: i64,
    ruleset_key: String,
    mu: f64,
    sigma: f64,
    games: i32,
    updated_at: OffsetDateTime,
}

impl TryFrom<RatingRow> for Rating {
    type Error = Error;

    fn try_from(r: RatingRow) -> Result<Self, Error> {
        Ok(Self {
            account_id: AccountId(r.account_id),
            ruleset_key: r.ruleset_key,
            skill: Skill {
                mu: r.mu,
                sigma: r.sigma,
            },
            games: seat_from_db(r.games)?,
            updated_at: r.updated_at,
        })
    }
}

#[derive(Debug, FromRow)]
struct StandingRow {
    #[sqlx(flatten)]
    rating: RatingRow,
    name: String,
    kind: String,
}

#[derive(Debug, FromRow)]
struct ChangeRow {
    game_id: String,
    account_id: i64,
    ruleset_key: String,
    place: i32,
    mu_before: f64,
    sigma_before: f64,
    mu_after: f64,
    sigma_after: f64,
    created_at: OffsetDateTime,
    games_after: i64,
}

impl TryFrom<ChangeRow> for RatingChange {
    type Error = Error;

    fn try_from(r: ChangeRow) -> Result<Self, Error> {
        Ok(Self {
            game_id: parse_game_id(&r.game_id)?,
            account_id: AccountId(r.account_id),
            ruleset_key: r.ruleset_key,
            place: seat_from_db(r.place)?,
            before: Skill {
                mu: r.mu_before,
                sigma: r.sigma_before,
            },
            after: Skill {
                mu: r.mu_after,
                sigma: r.sigma_after,
            },
            games_after: u32::try_from(r.games_after)
                .map_err(|_| Error::Corrupt(format!("games {}", r.games_after)))?,
            created_at: r.created_at,
        })
    }
}

impl Store {
    /// The stored rating of `account` under `ruleset_key`; `None` before
    /// its first rated game of that key.
    pub async fn rating(
        &self,
        account: AccountId,
        ruleset_key: &str,
    ) -> Result<Option<Rating>, Error> {
        let params = (account.0, ruleset_key);
        let row: Option<RatingRow> = self.db.fetch_optional(sql::RATING_OF, params).await?;
        row.map(TryInto::try_into).transpose()
    }

    /// Every stored rating of `account`, in key order.
    pub async fn ratings_of(&self, account: AccountId) -> Result<Vec<Rating>, Error> {
        let rows: Vec<RatingRow> = self.db.fetch_all(RATINGS_OF_ACCOUNT, (account.0,)).await?;
        rows.into_iter().map(TryInto::try_into).collect()
    }

    /// The highest conservative ratings under `ruleset_key` among accounts
    /// with at least `min_games` rated games, at most `limit`.
    pub async fn leaderboard(
        &self,
        ruleset_key: &str,
        min_games: u32,
        limit: u32,
    ) -> Result<Vec<Standing>, Error> {
        let params = (ruleset_key, i64::from(min_games), i64::from(limit));
        let rows: Vec<StandingRow> = self.db.fetch_all(LEADERBOARD, params).await?;
        rows.into_iter()
            .map(|r| {
                Ok(Standing {
                    kind: AccountKind::parse(&r.kind)
                        .ok_or_else(|| Error::Corrupt(format!("account kind {:?}", r.kind)))?,
                    name: r.name,
                    rating: r.rating.try_into()?,
                })
            })
            .collect()
    }

    /// `account`'s rating changes (`ruleset_key` `None`: under every key),
    /// newest first, at most `limit`.
    pub async fn rating_history(
        &self,
        account: AccountId,
        ruleset_key: Option<&str>,
        limit: u32,
    ) -> Result<Vec<RatingChange>, Error> {
        let params = (account.0, ruleset_key, i64::from(limit));
        let rows: Vec<ChangeRow> = self.db.fetch_all(HISTORY, params).await?;
        rows.into_iter().map(TryInto::try_into).collect()
    }

    /// Finished rated games whose ratings were never applied (a crash
    /// between the game's end and its rating update), oldest first.
    pub async fn unrated_finished_games(&self, limit: u32) -> Result<Vec<GameId>, Error> {
        let params = (i64::from(limit),);
        let ids: Vec<(String,)> = self.db.fetch_all(UNRATED_FINISHED, params).await?;
        ids.iter().map(|(id,)| parse_game_id(id)).collect()
    }
}

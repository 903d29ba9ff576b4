//! Applying one game's rating update exactly once: one transaction reads
//! the players' ratings (locked), asks the caller's model for the new ones,
//! and writes every change and rating. The primary key of `rating_changes`
//! turns a second application (a retry, a crash recovery, another
//! instance) into a no-op.

use crate::db::Tx;
use crate::error::is_unique_violation;
use crate::ratings::RatingRow;
use crate::rows::{now, seat_to_db};
use crate::seasons::SeasonRatingRow;
use crate::{
    AccountId, Error, GameId, Rating, RatingChange, SeasonRating, SeasonTrack, Skill, Store,
};

/// Creates a missing rating at the model's start, so the row exists to be
/// locked; a concurrent creator makes this wait, then do nothing.
const ENSURE_RATING: &str = "INSERT INTO ratings \
     (account_id, ruleset_key, mu, sigma, games, updated_at) VALUES ($1, $2, $3, $4, 0, $5) \
     ON CONFLICT (account_id, ruleset_key) DO NOTHING";

const GAME_RATED: &str = "SELECT COUNT(*) FROM rating_changes WHERE game_id = $1";

const UPDATE_RATING: &str = "UPDATE ratings SET mu = $3, sigma = $4, games = games + 1, \
     updated_at = $5 WHERE account_id = $1 AND ruleset_key = $2";

const INSERT_CHANGE: &str = "INSERT INTO rating_changes (game_id, account_id, ruleset_key, \
     place, mu_before, sigma_before, mu_after, sigma_after, created_at) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)";

/// A missing season rating, at the soft reset of the lifetime rating.
const ENSURE_SEASON_RATING: &str = "INSERT INTO season_ratings \
     (season_id, period_start, account_id, mu, sigma, games, updated_at) \
     VALUES ($1, $2, $3, $4, $5, 0, $6) \
     ON CONFLICT (season_id, period_start, account_id) DO NOTHING";

const UPDATE_SEASON_RATING: &str = "UPDATE season_ratings SET mu = $4, sigma = $5, \
     games = games + 1, updated_at = $6 \
     WHERE season_id = $1 AND period_start = $2 AND account_id = $3";

const INSERT_SEASON_CHANGE: &str = "INSERT INTO season_rating_changes (season_id, period_start, \
     game_id, account_id, mu_before, sigma_before, mu_after, sigma_after, created_at) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)";

/// One account's finishing place in a rated game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placed {
    pub account_id: AccountId,
    /// 1-based; shared places repeat.
    pub place: u32,
}

impl Store {
    /// Whether `game_id`'s rating update has been applied.
    pub async fn game_rated(&self, game_id: GameId) -> Result<bool, Error> {
        let (count,): (i64,) = self
            .db
            .fetch_one(GAME_RATED, (game_id.to_string(),))
            .await?;
        Ok(count > 0)
    }

    /// Applies `game_id`'s rating update once: reads the ratings of
    /// `placed` under `ruleset_key` (starting at `start` where none is
    /// stored), calls `model` with them (in `placed` order) for the new
    /// skills, and stores the changes and ratings in one transaction.
    /// `None`: the game's ratings were applied before (nothing changed).
    pub async fn apply_ratings<F>(
        &self,
        game_id: GameId,
        ruleset_key: &str,
        placed: &[Placed],
        start: Skill,
        model: F,
    ) -> Result<Option<Vec<RatingChange>>, Error>
    where
        F: Fn(&[Rating]) -> Vec<Skill> + Send + Sync,
    {
        let unchanged = |skill: Skill| skill;
        self.apply_ratings_in_seasons(game_id, ruleset_key, placed, start, &[], &unchanged, model)
            .await
    }

    /// [`Store::apply_ratings`], and in the same transaction the game's
    /// update of each season track in `seasons`: `model` again, over the
    /// players' ratings in that period, where a player's first game of the
    /// period starts from `reset` of their lifetime rating before the game.
    #[allow(clippy::too_many_arguments)]
    pub async fn apply_ratings_in_seasons<F>(
        &self,
        game_id: GameId,
        ruleset_key: &str,
        placed: &[Placed],
        start: Skill,
        seasons: &[SeasonTrack],
        reset: &(dyn Fn(Skill) -> Skill + Sync),
        model: F,
    ) -> Result<Option<Vec<RatingChange>>, Error>
    where
        F: Fn(&[Rating]) -> Vec<Skill> + Send + Sync,
    {
        let mut ordered = placed.to_vec();
        // One lock order for every transaction, so two games sharing
        // players cannot deadlock.
        ordered.sort_by_key(|p| p.account_id);
        if ordered
            .windows(2)
            .any(|w| w[0].account_id == w[1].account_id)
        {
            return Err(Error::Invalid("an account placed twice in one game"));
        }
        let model = |before: &[Rating]| reorder(placed, &ordered, before, &model);
        let update = Update {
            game_id,
            ruleset_key,
            placed: &ordered,
            start,
            seasons,
            reset,
        };
        let result = async {
            let mut tx = self.db.begin().await?;
            let dialect = self.db.dialect();
            let selects = (dialect.rating_for_update, dialect.season_rating_for_update);
            let Some(changes) = update.apply(&mut tx, selects, model).await? else {
                return Ok(None);
            };
            tx.commit().await?;
            Ok(Some(changes))
        }
        .await;
        match result {
            // Another instance applied the same game meanwhile.
            Err(Error::Database(e)) if is_unique_violation(&e) => Ok(None),
            other => other,
        }
    }
}

/// One game's rating update, its players in lock order.
struct Update<'a> {
    game_id: GameId,
    ruleset_key: &'a str,
    placed: &'a [Placed],
    start: Skill,
    seasons: &'a [SeasonTrack],
    reset: &'a (dyn Fn(Skill) -> Skill + Sync),
}

impl Update<'_> {
    /// Runs the update's steps in `tx`, reading each rating with `select`
    /// (the dialect's `rating_for_update`); `None` if the game was rated
    /// before.
    async fn apply(
        &self,
        tx: &mut Tx<'_>,
        (select, season_select): (&'static str, &'static str),
        model: impl Fn(&[Rating]) -> Vec<Skill>,
    ) -> Result<Option<Vec<RatingChange>>, Error> {
        let id = self.game_id.to_string();
        let (rated,): (i64,) = tx.fetch_one(GAME_RATED, (&id,)).await?;
        if rated > 0 {
            return Ok(None);
        }
        let key = self.ruleset_key;
        let mut before = Vec::with_capacity(self.placed.len());
        for p in self.placed {
            let (mu, sigma) = (self.start.mu, self.start.sigma);
            let params = (p.account_id.0, key, mu, sigma, now());
            tx.execute(ENSURE_RATING, params).await?;
            let row: RatingRow = tx.fetch_one(select, (p.account_id.0, key)).await?;
            before.push(Rating::try_from(row)?);
        }
        // Taken once the rows are locked: a game that waited for another
        // sharing a player is stamped after it, so history reads in order.
        let created_at = now();
        let after = model(&before);
        if after.len() != before.len() {
            return Err(Error::Invalid(
                "the model rated a different number of players",
            ));
        }
        let mut changes = Vec::with_capacity(self.placed.len());
        for ((p, old), new) in self.placed.iter().zip(&before).zip(&after) {
            let params = (p.account_id.0, key, new.mu, new.sigma, created_at);
            tx.execute(UPDATE_RATING, params).await?;
            let params = (
                &id,
                p.account_id.0,
                key,
                seat_to_db(p.place as usize)?,
                old.skill.mu,
                old.skill.sigma,
                new.mu,
                new.sigma,
                created_at,
            );
            tx.execute(INSERT_CHANGE, params).await?;
            changes.push(RatingChange {
                game_id: self.game_id,
                account_id: p.account_id,
                ruleset_key: key.to_owned(),
                place: p.place,
                before: old.skill,
                after: *new,
                games_after: old.games + 1,
                created_at,
            });
        }
        for track in self.seasons {
            self.apply_season(tx, season_select, track, &before, created_at, &model)
                .await?;
        }
        Ok(Some(changes))
    }

    /// The game's update of one season track; `lifetime` are the players'
    /// lifetime ratings before the game, in lock order.
    async fn apply_season(
        &self,
        tx: &mut Tx<'_>,
        select: &'static str,
        track: &SeasonTrack,
        lifetime: &[Rating],
        created_at: time::OffsetDateTime,
        model: &impl Fn(&[Rating]) -> Vec<Skill>,
    ) -> Result<(), Error> {
        let (season, period) = (track.season_id.as_str(), track.period_start);
        let mut before = Vec::with_capacity(self.placed.len());
        for (p, life) in self.placed.iter().zip(lifetime) {
            let start = (self.reset)(life.skill);
            let params = (
                season,
                period,
                p.account_id.0,
                start.mu,
                start.sigma,
                created_at,
            );
            tx.execute(ENSURE_SEASON_RATING, params).await?;
            let row: SeasonRatingRow = tx
                .fetch_one(select, (season, period, p.account_id.0))
                .await?;
            let rating = SeasonRating::try_from(row)?;
            before.push(Rating {
                account_id: p.account_id,
                ruleset_key: self.ruleset_key.to_owned(),
                skill: rating.skill,
                games: rating.games,
                updated_at: created_at,
            });
        }
        let after = model(&before);
        if after.len() != before.len() {
            return Err(Error::Invalid(
                "the model rated a different number of players",
            ));
        }
        let id = self.game_id.to_string();
        for ((p, old), new) in self.placed.iter().zip(&before).zip(&after) {
            let params = (
                season,
                period,
                p.account_id.0,
                new.mu,
                new.sigma,
                created_at,
            );
            tx.execute(UPDATE_SEASON_RATING, params).await?;
            let params = (
                season,
                period,
                &id,
                p.account_id.0,
                old.skill.mu,
                old.skill.sigma,
                new.mu,
                new.sigma,
                created_at,
            );
            tx.execute(INSERT_SEASON_CHANGE, params).await?;
        }
        Ok(())
    }
}

/// Calls `model` with the ratings in the caller's order and returns its
/// answer in lock order.
fn reorder<F>(caller: &[Placed], locked: &[Placed], before: &[Rating], model: &F) -> Vec<Skill>
where
    F: Fn(&[Rating]) -> Vec<Skill>,
{
    let index = |p: &Placed| locked.iter().position(|l| l.account_id == p.account_id);
    let in_caller_order: Vec<Rating> = caller
        .iter()
        .filter_map(|p| index(p).and_then(|i| before.get(i)).cloned())
        .collect();
    let after = model(&in_caller_order);
    locked
        .iter()
        .filter_map(|l| {
            let i = caller.iter().position(|p| p.account_id == l.account_id)?;
            after.get(i).copied()
        })
        .collect()
}

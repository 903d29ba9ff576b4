//! Applying one game's rating update exactly once: one transaction reads
//! the players' ratings (locked), asks the caller's model for the new ones,
//! and writes every change and rating. The primary key of `rating_changes`
//! turns a second application (a retry, a crash recovery, another
//! instance) into a no-op.

use crate::db::Tx;
use crate::error::is_unique_violation;
use crate::ratings::RatingRow;
use crate::rows::{now, seat_to_db};
use crate::{AccountId, Error, GameId, Rating, RatingChange, Skill, Store};

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
        F: FnOnce(&[Rating]) -> Vec<Skill> + Send,
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
        let model = |before: &[Rating]| reorder(placed, &ordered, before, model);
        let update = Update {
            game_id,
            ruleset_key,
            placed: &ordered,
            start,
        };
        let result = async {
            let mut tx = self.db.begin().await?;
            let select = self.db.dialect().rating_for_update;
            let Some(changes) = update.apply(&mut tx, select, model).await? else {
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
}

impl Update<'_> {
    /// Runs the update's steps in `tx`, reading each rating with `select`
    /// (the dialect's `rating_for_update`); `None` if the game was rated
    /// before.
    async fn apply(
        &self,
        tx: &mut Tx<'_>,
        select: &'static str,
        model: impl FnOnce(&[Rating]) -> Vec<Skill>,
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
        Ok(Some(changes))
    }
}

/// Calls `model` with the ratings in the caller's order and returns its
/// answer in lock order.
fn reorder<F>(caller: &[Placed], locked: &[Placed], before: &[Rating], model: F) -> Vec<Skill>
where
    F: FnOnce(&[Rating]) -> Vec<Skill>,
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

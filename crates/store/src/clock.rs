//! Turn-clock deadlines: per running timed game, the earliest moment one of
//! its seats' clocks may run out, so the service's timeout task finds due
//! games with an index instead of replaying every game.
//!
//! A row is a hint derived from the log, which stays the truth: it may be
//! earlier than the real deadline (the task then re-derives and moves it),
//! never later. Deadlines are unix milliseconds in both backends.

use crate::{Error, GameId, Store, rows};

const SET: &str = "INSERT INTO clocks (game_id, deadline, version) VALUES ($1, $2, $3) \
     ON CONFLICT (game_id) DO UPDATE SET deadline = excluded.deadline, \
     version = excluded.version WHERE clocks.version <= excluded.version";

const CLEAR: &str = "DELETE FROM clocks WHERE game_id = $1 AND version <= $2";

const DUE: &str = "SELECT game_id FROM clocks WHERE deadline <= $1 ORDER BY deadline LIMIT $2";

const NEXT: &str = "SELECT MIN(deadline) FROM clocks";

impl Store {
    /// Moves the game's deadline earlier to `deadline_ms` if it is later
    /// (or creates it, marked with `version`). Called before an append, so
    /// a crash right after the append cannot leave the row too late.
    pub async fn lower_clock(
        &self,
        game_id: GameId,
        version: u64,
        deadline_ms: i64,
    ) -> Result<(), Error> {
        let params = (game_id.to_string(), deadline_ms, rows::seq_to_db(version)?);
        let _turn = self.db.write_turn().await;
        self.db
            .execute(self.db.dialect().lower_clock, params)
            .await?;
        Ok(())
    }

    /// The exact deadline as of `version` (`None`: no clock runs, e.g. the
    /// game is over). Ignored if the row was set from a newer version.
    pub async fn set_clock(
        &self,
        game_id: GameId,
        version: u64,
        deadline_ms: Option<i64>,
    ) -> Result<(), Error> {
        let version = rows::seq_to_db(version)?;
        let id = game_id.to_string();
        let _turn = self.db.write_turn().await;
        match deadline_ms {
            Some(deadline) => self.db.execute(SET, (id, deadline, version)).await?,
            None => self.db.execute(CLEAR, (id, version)).await?,
        };
        Ok(())
    }

    /// Games whose deadline is at or before `now_ms`, earliest first, at
    /// most `limit`.
    pub async fn due_clocks(&self, now_ms: i64, limit: u32) -> Result<Vec<GameId>, Error> {
        let params = (now_ms, i64::from(limit));
        let ids: Vec<(String,)> = self.db.fetch_all(DUE, params).await?;
        ids.iter().map(|(id,)| rows::parse_game_id(id)).collect()
    }

    /// The earliest deadline of any game, if any clock runs.
    pub async fn next_clock(&self) -> Result<Option<i64>, Error> {
        let (next,): (Option<i64>,) = self.db.fetch_one(NEXT, ()).await?;
        Ok(next)
    }
}

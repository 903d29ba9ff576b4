//! Appends for many games in one durable commit: the step under
//! [`crate::GroupCommit`], and (as a round of one) under
//! [`crate::Store::append`]. The round (`round`) is the same on both
//! backends; how its rows are written is each backend's own
//! (`postgres`, `sqlite`).
//!
//! Each request keeps the meaning of a single [`crate::Store::append`]: its
//! own typed answer ([`Error::Conflict`], [`Error::DuplicateMove`],
//! [`Error::GameNotFound`], [`Error::Invalid`]), all of its events or none.
//! One request's refusal never fails another's: a round is one guarded
//! insert that writes only requests that follow their game's log, and the
//! rest are checked and answered one by one (`round`). If a careful write
//! fails as a whole (another instance appended between check and write, or
//! the database failed), every request of it is retried alone, so each
//! still gets its own answer.

mod plan;
pub(crate) mod postgres;
mod round;
mod sqlite;
mod written;

use std::collections::HashSet;

use postgres::PgRounds;
use sqlite::SqliteRounds;

use crate::append::{Append, AppendRequest, AppendResults};
use crate::db::Db;
use crate::{Error, GameId, NewEvent, Store, StoredEvent, ToAct};

impl Store {
    /// Appends `events` at `expected_seq`, `expected_seq + 1`, ... in one
    /// transaction, all or nothing. `expected_seq` is one past the last event
    /// the caller has seen; otherwise [`Error::Conflict`]. An event whose
    /// move id is already stored gives [`Error::DuplicateMove`] (checked
    /// first, so a retried move is recognised even if the log moved on).
    pub async fn append(
        &self,
        game_id: GameId,
        expected_seq: u64,
        events: &[NewEvent],
    ) -> Result<Vec<StoredEvent>, Error> {
        self.append_to_act(game_id, expected_seq, events, None)
            .await
    }

    /// As [`Store::append`], saying who may act once the events are
    /// applied (the turn index ListGames reads, and the notice).
    pub async fn append_to_act(
        &self,
        game_id: GameId,
        expected_seq: u64,
        events: &[NewEvent],
        to_act: Option<&ToAct>,
    ) -> Result<Vec<StoredEvent>, Error> {
        let append = Append {
            game_id,
            expected_seq,
            events,
            to_act,
        };
        // A round of one: usually one guarded insert, no transaction.
        let mut writer = BatchWriter::new(self.clone());
        let mut answers = writer.append_round(&[append]).await;
        answers
            .pop()
            .unwrap_or(Err(Error::Invalid("request not answered")))
    }

    /// Appends each request as [`Store::append`] would, sharing durable
    /// commits: one per round, where a round holds at most one request per
    /// game (a game's later requests go to later rounds, in order).
    pub async fn append_batch(&self, requests: &[AppendRequest]) -> AppendResults {
        BatchWriter::new(self.clone()).append(requests).await
    }
}

/// Writes batches as [`Store::append_batch`] does, keeping one connection
/// from batch to batch, so a task that writes batch after batch (a group
/// committer) does not pay sqlx's pings around every round (see `held`).
#[derive(Debug)]
pub(crate) enum BatchWriter {
    Postgres(PgRounds),
    Sqlite(SqliteRounds),
}

impl BatchWriter {
    pub(crate) fn new(store: Store) -> Self {
        match &store.db {
            Db::Postgres(backend) => {
                let pool = backend.pool.clone();
                BatchWriter::Postgres(PgRounds::new(store.db, pool))
            }
            Db::Sqlite(backend) => {
                let backend = backend.clone();
                BatchWriter::Sqlite(SqliteRounds::new(store.db, backend))
            }
        }
    }

    /// Answers a round (at most one request per game).
    pub(crate) async fn append_round(&mut self, round: &[Append<'_>]) -> AppendResults {
        match self {
            BatchWriter::Postgres(w) => round::append_round(w, round).await,
            BatchWriter::Sqlite(w) => round::append_round(w, round).await,
        }
    }

    /// As [`Store::append_batch`].
    pub(crate) async fn append(&mut self, requests: &[AppendRequest]) -> AppendResults {
        let mut results: Vec<Option<Result<Vec<StoredEvent>, Error>>> =
            requests.iter().map(|_| None).collect();
        let mut pending: Vec<usize> = (0..requests.len()).collect();
        while !pending.is_empty() {
            let mut games = HashSet::new();
            let (round, later): (Vec<usize>, Vec<usize>) = pending
                .iter()
                .partition(|&&i| games.insert(requests[i].game_id));
            let batch: Vec<Append<'_>> = round.iter().map(|&i| requests[i].borrowed()).collect();
            let answers = self.append_round(&batch).await;
            for (i, answer) in round.into_iter().zip(answers) {
                results[i] = Some(answer);
            }
            pending = later;
        }
        results
            .into_iter()
            .map(|r| r.unwrap_or(Err(Error::Invalid("request not answered"))))
            .collect()
    }
}

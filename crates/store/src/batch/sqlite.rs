//! A round on SQLite (see `round`). The guarded insert is one
//! `INSERT ... SELECT` over `json_each`, its own transaction: one WAL sync
//! for the round. The careful way: one immediate transaction (SQLite's one
//! writer) in which each request is checked and written in turn. A refused
//! request has written nothing (the checks come before its inserts), so it
//! cannot spoil the others. Any database error there rolls that transaction back and each
//! request is retried alone.

use serde_json::{Value, json};
use sqlx::{Connection, Sqlite};

use super::round::{RoundWriter, append_each_alone};
use super::written::Written;
use crate::append::{Append, AppendResults};
use crate::db::{Db, Tx};
use crate::event_log::append_in_tx;
use crate::held::Held;
use crate::rows;
use crate::sqlite::{self, BEGIN_WRITE};
use crate::{Appended, Error, StoredEvent, ToAct};

/// Every insert of a round, its rows unpacked from one JSON array of
/// `[game_id, seq, kind, payload (JSON text), move_id, after, to_act]`:
/// rows whose game's log ends at `after`, so a request is written whole or
/// not at all. SQLite evaluates the whole `SELECT` before inserting (it
/// reads the table it writes), so every guard sees the log as the
/// statement found it. Each row's `to_act` sets its game's turn index (a
/// trigger, in the same statement).
const INSERT_GUARDED: &str = "INSERT INTO events \
     (game_id, seq, kind, payload, move_id, to_act, created_at) \
     SELECT r.value ->> 0, r.value ->> 1, r.value ->> 2, r.value ->> 3, r.value ->> 4, \
     r.value ->> 6, $2 \
     FROM json_each($1) AS r \
     WHERE r.value ->> 5 = (SELECT MAX(p.seq) FROM events p WHERE p.game_id = r.value ->> 0) \
     RETURNING game_id, seq";

/// Rounds on one kept connection.
#[derive(Debug)]
pub(crate) struct SqliteRounds {
    db: Db,
    /// `db`'s backend, for its writer's turns.
    backend: sqlite::Backend,
    held: Held<Sqlite>,
}

impl SqliteRounds {
    pub(crate) fn new(db: Db, backend: sqlite::Backend) -> Self {
        let held = Held::new(backend.pool.clone());
        Self { db, backend, held }
    }
}

impl RoundWriter for SqliteRounds {
    async fn insert_guarded(
        &mut self,
        round: &[Append<'_>],
        which: &[usize],
    ) -> Result<Vec<(usize, Vec<StoredEvent>)>, Error> {
        let written = insert_guarded(&self.backend, &mut self.held, round, which).await;
        self.held.check_store(written)
    }

    async fn append_checked(&mut self, round: &[Append<'_>]) -> AppendResults {
        let written = write_round(&self.backend, &mut self.held, round).await;
        match self.held.check_store(written) {
            Ok(answers) => answers,
            Err(error) => {
                tracing::debug!(%error, requests = round.len(), "batched append failed; appending one by one");
                append_each_alone(&self.db, round).await
            }
        }
    }

    fn notify(&self, appended: Vec<Appended>) {
        self.db.notify(appended);
    }
}

/// Writes the requests `which` of `round` in one guarded statement; returns
/// those written, each with its events.
async fn insert_guarded(
    backend: &sqlite::Backend,
    held: &mut Held<Sqlite>,
    round: &[Append<'_>],
    which: &[usize],
) -> Result<Vec<(usize, Vec<StoredEvent>)>, Error> {
    let mut rows = Vec::new();
    for &i in which {
        let r = &round[i];
        let after = rows::seq_to_db(r.expected_seq.saturating_sub(1))?;
        let to_act = ToAct::mask(r.to_act);
        for (seq, event) in (r.expected_seq..).zip(r.events) {
            rows.push(json!([
                r.game_id.to_string(),
                rows::seq_to_db(seq)?,
                event.kind,
                event.payload.to_string(),
                event.move_id,
                after,
                to_act,
            ]));
        }
    }
    let at = rows::now();
    if rows.is_empty() {
        return Ok(Vec::new());
    }
    let _turn = backend.write_turn().await;
    let keys = sqlx::query_as(INSERT_GUARDED)
        .bind(Value::Array(rows).to_string())
        .bind(at)
        .fetch_all(held.get().await?)
        .await?;
    Written::from_rows(keys, at)?.answers(round, which)
}

/// The careful way for the requests the guarded insert did not write: each
/// checked and written in turn, in one transaction; the error that failed
/// it as a whole, if any.
async fn write_round(
    backend: &sqlite::Backend,
    held: &mut Held<Sqlite>,
    round: &[Append<'_>],
) -> Result<AppendResults, Error> {
    let turn = backend.write_turn().await;
    let tx = held.get().await?.begin_with(BEGIN_WRITE).await?;
    let mut tx = Tx::sqlite(tx, turn);
    let mut answers = Vec::with_capacity(round.len());
    for r in round {
        let answer = match rows::validate_append(r.events) {
            Ok(()) => append_in_tx(&mut tx, r).await,
            Err(e) => Err(e),
        };
        match answer {
            Ok(stored) => answers.push(Ok(stored)),
            Err(
                e @ (Error::Conflict { .. } | Error::DuplicateMove { .. } | Error::GameNotFound(_)),
            ) => {
                answers.push(Err(e));
            }
            Err(Error::Invalid(why)) => answers.push(Err(Error::Invalid(why))),
            // Anything else may have written part of the request.
            Err(e) => return Err(e),
        }
    }
    tx.commit().await?;
    Ok(answers)
}

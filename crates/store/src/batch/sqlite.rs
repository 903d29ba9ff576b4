//! A round on SQLite: one immediate transaction (SQLite's one writer) in
//! which each request is checked and written in turn, then one commit, so
//! one WAL sync for the whole round.
//!
//! A refused request has written nothing (the checks come before its
//! inserts), so it cannot spoil the others. Any database error rolls the
//! whole round back and each request is retried alone.

use super::{Append, AppendResults};
use crate::sqlite::append_checked;
use crate::{Error, SqliteStore};

/// Answers a round (at most one request per game).
pub(super) async fn append_round(store: &SqliteStore, round: &[Append<'_>]) -> AppendResults {
    match write_round(store, round).await {
        Ok(answers) => {
            for stored in answers.iter().flatten() {
                if let Some(last) = stored.last() {
                    store.notify(last.game_id, last.seq);
                }
            }
            answers
        }
        Err(error) => {
            tracing::debug!(%error, requests = round.len(), "batched append failed; appending one by one");
            let mut answers = Vec::with_capacity(round.len());
            for r in round {
                answers.push(store.append(r.game_id, r.expected_seq, r.events).await);
            }
            answers
        }
    }
}

async fn write_round(store: &SqliteStore, round: &[Append<'_>]) -> Result<AppendResults, Error> {
    let mut tx = store.begin_write().await?;
    let mut answers = Vec::with_capacity(round.len());
    for r in round {
        let answer = match crate::rows::validate_append(r.events) {
            Ok(()) => append_checked(&mut tx, r.game_id, r.expected_seq, r.events).await,
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

//! A round, the same on both backends: one guarded insert of every
//! well-formed request (a row goes in only if its game's log ends just
//! before the request's expected seq), which in the common case is the
//! whole round and its one durable commit; then the careful way for what
//! it did not write (the guard filtered it: a stale or unknown game) or
//! for everything if it failed (a repeated move id, a race with another
//! instance); then the notices of the games that grew.

use crate::append::{Append, AppendResults};
use crate::db::Db;
use crate::event_log::append_alone;
use crate::{Appended, Error, StoredEvent, rows};

/// A backend's ways to write a round, for [`append_round`].
pub(crate) trait RoundWriter {
    /// One guarded insert of the requests `which` of `round`: those it
    /// wrote, each with its events; a request the guard filtered is absent.
    async fn insert_guarded(
        &mut self,
        round: &[Append<'_>],
        which: &[usize],
    ) -> Result<Vec<(usize, Vec<StoredEvent>)>, Error>;

    /// Every request checked against the log and given its own answer.
    async fn append_checked(&mut self, round: &[Append<'_>]) -> AppendResults;

    /// Tells whoever watches which games grew.
    fn notify(&self, appended: Vec<Appended>);
}

/// Answers a round (at most one request per game).
pub(crate) async fn append_round(
    writer: &mut impl RoundWriter,
    round: &[Append<'_>],
) -> AppendResults {
    let mut answers: Vec<Option<Result<Vec<StoredEvent>, Error>>> =
        round.iter().map(|_| None).collect();
    let fast: Vec<usize> = (0..round.len())
        .filter(|&i| rows::validate_append(round[i].events).is_ok())
        .collect();
    match writer.insert_guarded(round, &fast).await {
        Ok(written) => {
            for (i, events) in written {
                answers[i] = Some(Ok(events));
            }
        }
        Err(error) => tracing::debug!(%error, "guarded append failed; checking each request"),
    }
    let careful: Vec<usize> = (0..round.len()).filter(|&i| answers[i].is_none()).collect();
    if !careful.is_empty() {
        let subset: Vec<Append<'_>> = careful.iter().map(|&i| round[i]).collect();
        for (i, answer) in careful
            .into_iter()
            .zip(writer.append_checked(&subset).await)
        {
            answers[i] = Some(answer);
        }
    }
    let answers: AppendResults = answers
        .into_iter()
        .map(|a| a.unwrap_or(Err(Error::Invalid("request not answered"))))
        .collect();
    let appended = round
        .iter()
        .zip(&answers)
        .filter_map(|(r, a)| {
            Some(Appended {
                game_id: r.game_id,
                seq: a.as_ref().ok()?.last()?.seq,
                to_act: r.to_act.map(|t| t.accounts.clone()),
            })
        })
        .collect();
    writer.notify(appended);
    answers
}

/// The last resort of a careful write that failed as a whole: each request
/// in a transaction of its own, so each still gets its own answer.
pub(super) async fn append_each_alone(db: &Db, round: &[Append<'_>]) -> AppendResults {
    let mut answers = Vec::with_capacity(round.len());
    for r in round {
        answers.push(append_alone(db, r).await);
    }
    answers
}

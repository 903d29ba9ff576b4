//! A round on Postgres (see `round`). The guarded insert is one
//! `INSERT ... SELECT` over `unnest`ed columns: the round's only round
//! trip in the common case. The careful way: two reads for its requests
//! (each game's last seq, the stored events with their move ids), a
//! decision per request, and the same guarded `INSERT` of the accepted
//! ones. If that fails as a whole, each request is retried alone and
//! explained.
//!
//! No explicit transactions: each insert is atomic by itself, and a write
//! that slipped in between the reads and the insert breaks the
//! `(game_id, seq)` or `(game_id, move_id)` key, failing that insert.

use serde_json::Value;
use sqlx::Postgres;
use sqlx::postgres::PgPool;
use sqlx::types::Json;

use super::plan::{self, Seen};
use super::round::{RoundWriter, append_each_alone};
use super::written::Written;
use crate::append::{Append, AppendResults};
use crate::db::Db;
use crate::held::Held;
use crate::rows::{self, EventRow};
use crate::{Appended, Error, StoredEvent, ToAct};

/// Each listed game's last seq (NULL: no events, so no game).
pub(crate) const LAST_SEQS: &str = "SELECT g.id, (SELECT MAX(e.seq) FROM events e WHERE e.game_id = g.id) \
     FROM unnest($1::text[]) AS g(id)";

/// The stored events carrying any of the listed (game, move id) pairs.
/// Each pair is looked up on its own through the `(game_id, move_id)` key
/// (`LIMIT 1` keeps the planner from turning the lookups into a join, which
/// on a young table's statistics it would run as a scan of every event).
pub(crate) const EVENTS_BY_MOVE_IDS: &str = "SELECT e.game_id, e.seq, e.kind, e.payload, e.move_id, \
     e.created_at FROM unnest($1::text[], $2::text[]) AS m(game_id, move_id) \
     CROSS JOIN LATERAL (SELECT * FROM events e \
     WHERE e.game_id = m.game_id AND e.move_id = m.move_id LIMIT 1) e";

/// Every insert of a round: rows whose game's log ends at `after` (the seq
/// before their request's first), so a request is written whole or not at
/// all. The guard is a subquery per row, which Postgres always runs as a
/// look-up of the game's last key: written as a join (`EXISTS`), a plan
/// made while the table was small (a connection's prepared statement keeps
/// its plan) scanned the whole event log on every insert. What was written
/// comes back as keys; the rest the caller already has.
/// Each row's `to_act` sets its game's turn index (a trigger, once per
/// statement).
pub(crate) const INSERT_GUARDED: &str = "INSERT INTO events \
     (game_id, seq, kind, payload, move_id, to_act, created_at) \
     SELECT r.game_id, r.seq, r.kind, r.payload, r.move_id, r.to_act, $8 \
     FROM unnest($1::text[], $2::bigint[], $3::text[], $4::jsonb[], $5::text[], $6::bigint[], \
     $7::bigint[]) AS r(game_id, seq, kind, payload, move_id, after, to_act) \
     WHERE r.after = (SELECT MAX(p.seq) FROM events p WHERE p.game_id = r.game_id) \
     RETURNING game_id, seq";

/// Rounds on one kept connection.
#[derive(Debug)]
pub(crate) struct PgRounds {
    db: Db,
    held: Held<Postgres>,
}

impl PgRounds {
    /// Rounds on a connection of `pool`, `db`'s.
    pub(crate) fn new(db: Db, pool: PgPool) -> Self {
        let held = Held::new(pool);
        Self { db, held }
    }
}

impl RoundWriter for PgRounds {
    async fn insert_guarded(
        &mut self,
        round: &[Append<'_>],
        which: &[usize],
    ) -> Result<Vec<(usize, Vec<StoredEvent>)>, Error> {
        insert_guarded(&mut self.held, round, which).await
    }

    async fn append_checked(&mut self, round: &[Append<'_>]) -> AppendResults {
        append_checked(&self.db, &mut self.held, round).await
    }

    fn notify(&self, appended: Vec<Appended>) {
        self.db.notify(appended);
    }
}

/// Writes the requests `which` of `round` in one guarded statement; returns
/// those written, each with its stored events. A request the guard filtered
/// is absent.
async fn insert_guarded(
    held: &mut Held<Postgres>,
    round: &[Append<'_>],
    which: &[usize],
) -> Result<Vec<(usize, Vec<StoredEvent>)>, Error> {
    let mut columns = Columns::default();
    for &i in which {
        columns.push(&round[i])?;
    }
    insert(held, &columns).await?.answers(round, which)
}

/// Writes the rows with [`INSERT_GUARDED`].
async fn insert(held: &mut Held<Postgres>, columns: &Columns<'_>) -> Result<Written, Error> {
    let at = rows::now();
    if columns.game_id.is_empty() {
        return Written::from_rows(Vec::new(), at);
    }
    let query = sqlx::query_as(INSERT_GUARDED)
        .bind(&columns.game_id)
        .bind(&columns.seq)
        .bind(&columns.kind)
        .bind(&columns.payload)
        .bind(&columns.move_id)
        .bind(&columns.after)
        .bind(&columns.to_act)
        .bind(at);
    let result = query.fetch_all(held.get().await?).await;
    Written::from_rows(held.check(result)?, at)
}

/// The careful way: check every request against the log, write the
/// accepted ones in one statement; if that fails, each request alone.
async fn append_checked(db: &Db, held: &mut Held<Postgres>, round: &[Append<'_>]) -> AppendResults {
    match write_round(held, round).await {
        Ok(answers) => answers,
        Err(error) => {
            if round.len() > 1 {
                tracing::debug!(%error, requests = round.len(), "batched append failed; appending one by one");
            }
            append_each_alone(db, round).await
        }
    }
}

/// The answers, or the error that failed the round as a whole.
async fn write_round(
    held: &mut Held<Postgres>,
    round: &[Append<'_>],
) -> Result<AppendResults, Error> {
    let seen = read_seen(held, round).await?;
    let decided: Vec<Result<(), Error>> = round.iter().map(|r| plan::decide(r, &seen)).collect();
    let mut columns = Columns::default();
    for (r, _) in round.iter().zip(&decided).filter(|(_, d)| d.is_ok()) {
        columns.push(r)?;
    }
    // The reads found each accepted request's previous event, and events
    // are never deleted, so the guard passes them all; a race breaks a key.
    let written = insert(held, &columns).await?;
    let answers = round
        .iter()
        .zip(decided)
        .map(|(r, decided)| {
            decided?;
            if written.count(r) != r.events.len() {
                return Err(Error::Corrupt(format!(
                    "append to {} not returned",
                    r.game_id
                )));
            }
            Ok(written.events(r))
        })
        .collect();
    Ok(answers)
}

async fn read_seen(held: &mut Held<Postgres>, round: &[Append<'_>]) -> Result<Seen, Error> {
    let ids: Vec<String> = round.iter().map(|r| r.game_id.to_string()).collect();
    let result = sqlx::query_as(LAST_SEQS)
        .bind(&ids)
        .fetch_all(held.get().await?)
        .await;
    let lasts: Vec<(String, Option<i64>)> = held.check(result)?;
    let mut seen = Seen::default();
    for (id, last) in lasts {
        if let Some(last) = last {
            seen.last
                .insert(rows::parse_game_id(&id)?, rows::seq_from_db(last)?);
        }
    }
    let (games, move_ids): (Vec<String>, Vec<&str>) = round
        .iter()
        .flat_map(|r| {
            r.events
                .iter()
                .filter_map(|e| e.move_id.as_deref())
                .map(|m| (r.game_id.to_string(), m))
        })
        .unzip();
    if !move_ids.is_empty() {
        let result = sqlx::query_as(EVENTS_BY_MOVE_IDS)
            .bind(&games)
            .bind(&move_ids)
            .fetch_all(held.get().await?)
            .await;
        let found: Vec<EventRow> = held.check(result)?;
        for row in found {
            let event: StoredEvent = row.try_into()?;
            if let Some(move_id) = event.move_id.clone() {
                seen.moves.insert((event.game_id, move_id), event);
            }
        }
    }
    Ok(seen)
}

/// The accepted events as one array per column, for `unnest`.
#[derive(Default)]
struct Columns<'a> {
    game_id: Vec<String>,
    seq: Vec<i64>,
    kind: Vec<&'a str>,
    payload: Vec<Json<&'a Value>>,
    move_id: Vec<Option<&'a str>>,
    /// The seq before the row's request (the insert's guard).
    after: Vec<i64>,
    /// Who may act once the row's request is applied (every row of it).
    to_act: Vec<Option<i64>>,
}

impl<'a> Columns<'a> {
    fn push(&mut self, r: &Append<'a>) -> Result<(), Error> {
        let id = r.game_id.to_string();
        let after = rows::seq_to_db(r.expected_seq.saturating_sub(1))?;
        let to_act = ToAct::mask(r.to_act);
        for (seq, event) in (r.expected_seq..).zip(r.events) {
            self.to_act.push(to_act);
            self.game_id.push(id.clone());
            self.seq.push(rows::seq_to_db(seq)?);
            self.kind.push(&event.kind);
            self.payload.push(Json(&event.payload));
            self.move_id.push(event.move_id.as_deref());
            self.after.push(after);
        }
        Ok(())
    }
}

//! A round on Postgres: two reads for the whole round (each game's last
//! seq, the stored events with the requests' move ids), then one `INSERT`
//! of every accepted event, which is the round's one durable commit.
//!
//! No explicit transaction: the insert is atomic by itself, and a write
//! that slipped in between the reads and the insert (another instance)
//! breaks the `(game_id, seq)` or `(game_id, move_id)` key, failing the
//! insert as a whole; then each request is retried alone and explained.

use serde_json::Value;
use sqlx::types::Json;

use super::plan::{self, Seen};
use super::{Append, AppendResults};
use crate::rows::{self, EventRow};
use crate::{Error, GameId, PgStore, StoredEvent, pg_listener};

/// Each listed game's last seq (NULL: no events, so no game).
const LAST_SEQS: &str = "SELECT g.id, (SELECT MAX(e.seq) FROM events e WHERE e.game_id = g.id) \
     FROM unnest($1::text[]) AS g(id)";

/// The stored events carrying any of the listed (game, move id) pairs.
const EVENTS_BY_MOVE_IDS: &str = "SELECT e.game_id, e.seq, e.kind, e.payload, e.move_id, \
     e.created_at FROM events e \
     JOIN unnest($1::text[], $2::text[]) AS m(game_id, move_id) \
     ON e.game_id = m.game_id AND e.move_id = m.move_id";

const INSERT_EVENTS: &str = "INSERT INTO events (game_id, seq, kind, payload, move_id, created_at) \
     SELECT r.game_id, r.seq, r.kind, r.payload, r.move_id, $6 \
     FROM unnest($1::text[], $2::bigint[], $3::text[], $4::jsonb[], $5::text[]) \
     AS r(game_id, seq, kind, payload, move_id) \
     RETURNING game_id, seq, kind, payload, move_id, created_at";

/// Answers a round (at most one request per game).
pub(crate) async fn append_round(store: &PgStore, round: &[Append<'_>]) -> AppendResults {
    match write_round(store, round).await {
        Ok((answers, notices)) => {
            store.notify_appended(&notices).await;
            answers
        }
        Err(error) => {
            if round.len() > 1 {
                tracing::debug!(%error, requests = round.len(), "batched append failed; appending one by one");
            }
            let mut answers = Vec::with_capacity(round.len());
            for r in round {
                answers.push(
                    store
                        .append_in_transaction(r.game_id, r.expected_seq, r.events)
                        .await,
                );
            }
            answers
        }
    }
}

/// The answers and the notices to send, or the error that failed the round
/// as a whole.
async fn write_round(
    store: &PgStore,
    round: &[Append<'_>],
) -> Result<(AppendResults, Vec<(GameId, u64)>), Error> {
    let seen = read_seen(store, round).await?;
    let decided: Vec<Result<(), Error>> = round.iter().map(|r| plan::decide(r, &seen)).collect();
    let mut columns = Columns::default();
    for (r, _) in round.iter().zip(&decided).filter(|(_, d)| d.is_ok()) {
        columns.push(r)?;
    }
    let mut stored: Vec<StoredEvent> = if columns.game_id.is_empty() {
        Vec::new()
    } else {
        let rows: Vec<EventRow> = sqlx::query_as(INSERT_EVENTS)
            .bind(&columns.game_id)
            .bind(&columns.seq)
            .bind(&columns.kind)
            .bind(&columns.payload)
            .bind(&columns.move_id)
            .bind(rows::now())
            .fetch_all(store.pool())
            .await?;
        rows.into_iter()
            .map(TryInto::try_into)
            .collect::<Result<_, _>>()?
    };
    stored.sort_by_key(|a| (a.game_id, a.seq));
    let mut notices = Vec::new();
    let answers = round
        .iter()
        .zip(decided)
        .map(|(r, decided)| {
            decided?;
            let first =
                stored.partition_point(|e| (e.game_id, e.seq) < (r.game_id, r.expected_seq));
            let mine = stored[first..]
                .iter()
                .take_while(|e| e.game_id == r.game_id)
                .take(r.events.len())
                .cloned()
                .collect::<Vec<_>>();
            if mine.len() != r.events.len() {
                return Err(Error::Corrupt(format!(
                    "append to {} not returned",
                    r.game_id
                )));
            }
            if let Some(last) = mine.last() {
                notices.push((r.game_id, last.seq));
            }
            Ok(mine)
        })
        .collect();
    Ok((answers, notices))
}

async fn read_seen(store: &PgStore, round: &[Append<'_>]) -> Result<Seen, Error> {
    let ids: Vec<String> = round.iter().map(|r| r.game_id.to_string()).collect();
    let lasts: Vec<(String, Option<i64>)> = sqlx::query_as(LAST_SEQS)
        .bind(&ids)
        .fetch_all(store.pool())
        .await?;
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
        let found: Vec<EventRow> = sqlx::query_as(EVENTS_BY_MOVE_IDS)
            .bind(&games)
            .bind(&move_ids)
            .fetch_all(store.pool())
            .await?;
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
}

impl<'a> Columns<'a> {
    fn push(&mut self, r: &Append<'a>) -> Result<(), Error> {
        let id = r.game_id.to_string();
        for (seq, event) in (r.expected_seq..).zip(r.events) {
            self.game_id.push(id.clone());
            self.seq.push(rows::seq_to_db(seq)?);
            self.kind.push(&event.kind);
            self.payload.push(Json(&event.payload));
            self.move_id.push(event.move_id.as_deref());
        }
        Ok(())
    }
}

impl PgStore {
    /// Tells every instance (this one too) which games grew, after the
    /// commit. A failure only costs listeners a hint: they re-read on
    /// their next look.
    pub(crate) async fn notify_appended(&self, notices: &[(GameId, u64)]) {
        if let Err(error) = pg_listener::notify_all(self.notify_pool(), notices).await {
            tracing::warn!(%error, "cannot send append notices");
        }
    }
}

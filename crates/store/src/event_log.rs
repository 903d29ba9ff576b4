//! Each game's event log: its reads, and the checked append a transaction
//! runs (a game's first event; a round's requests when the round falls
//! back to appending them one at a time). Appends themselves are rounds
//! (`crate::batch`).

use serde_json::Value;
use sqlx::types::Json;

use crate::append::Append;
use crate::db::{Db, Tx};
use crate::error::is_unique_violation;
use crate::rows::{self, EventRow};
use crate::{Error, GameId, NewEvent, Store, StoredEvent, ToAct, sql};

impl Store {
    /// The seq of the game's last event; `None` if there is no such game.
    pub async fn last_seq(&self, game_id: GameId) -> Result<Option<u64>, Error> {
        last_seq(&self.db, game_id).await
    }

    /// The game's events from `from_seq` on, in order; empty for an unknown
    /// game.
    pub async fn load_events(
        &self,
        game_id: GameId,
        from_seq: u64,
    ) -> Result<Vec<StoredEvent>, Error> {
        let params = (game_id.to_string(), rows::seq_to_db(from_seq)?);
        let rows: Vec<EventRow> = self.db.fetch_all(sql::LOAD_EVENTS, params).await?;
        rows.into_iter().map(TryInto::try_into).collect()
    }
}

async fn last_seq(db: &Db, game_id: GameId) -> Result<Option<u64>, Error> {
    let (seq,): (Option<i64>,) = db.fetch_one(sql::LAST_SEQ, (game_id.to_string(),)).await?;
    seq.map(rows::seq_from_db).transpose()
}

/// One request appended in a transaction of its own, after checking it
/// against the log; a unique violation (another appender won a race past
/// the checks) is answered with what won it. Announcing the events is the
/// caller's.
pub(crate) async fn append_alone(db: &Db, r: &Append<'_>) -> Result<Vec<StoredEvent>, Error> {
    let (game_id, events) = (r.game_id, r.events);
    rows::validate_append(events)?;
    let mut tx = db.begin().await?;
    let stored = match append_in_tx(&mut tx, r).await {
        Ok(stored) => stored,
        // The loser of a race lands here once the winner commits (on
        // SQLite, whose writers take turns, only if another process wrote).
        Err(Error::Database(e)) if is_unique_violation(&e) => {
            drop(tx);
            return Err(explain_conflict(db, game_id, events).await);
        }
        Err(e) => return Err(e),
    };
    tx.commit().await?;
    Ok(stored)
}

/// Checks `expected_seq` and the move ids, then inserts. Reads inside the
/// write transaction, so nothing can slip in between check and insert.
pub(crate) async fn append_in_tx(
    tx: &mut Tx<'_>,
    r: &Append<'_>,
) -> Result<Vec<StoredEvent>, Error> {
    let (game_id, expected_seq, events) = (r.game_id, r.expected_seq, r.events);
    let to_act = ToAct::mask(r.to_act);
    let id = game_id.to_string();
    for move_id in events.iter().filter_map(|e| e.move_id.as_deref()) {
        let row: Option<EventRow> = tx
            .fetch_optional(sql::EVENT_BY_MOVE_ID, (&id, move_id))
            .await?;
        if let Some(row) = row {
            let event = Box::new(row.try_into()?);
            return Err(Error::DuplicateMove { event });
        }
    }
    let (last,): (Option<i64>,) = tx.fetch_one(sql::LAST_SEQ, (&id,)).await?;
    let last = last.map(rows::seq_from_db).transpose()?;
    rows::check_expected(game_id, last, expected_seq)?;
    let mut stored = Vec::with_capacity(events.len());
    for (seq, event) in (expected_seq..).zip(events) {
        stored.push(insert_event(tx, game_id, seq, event, to_act).await?);
    }
    Ok(stored)
}

pub(crate) async fn insert_event(
    tx: &mut Tx<'_>,
    game_id: GameId,
    seq: u64,
    event: &NewEvent,
    to_act: Option<i64>,
) -> Result<StoredEvent, Error> {
    let params = (
        game_id.to_string(),
        rows::seq_to_db(seq)?,
        event.kind.as_str(),
        Json::<&Value>(&event.payload),
        event.move_id.as_deref(),
        rows::now(),
        to_act,
    );
    let row: EventRow = tx.fetch_one(sql::INSERT_EVENT, params).await?;
    row.try_into()
}

/// After a unique violation: which move was already stored, or else how
/// far the log has got. A move id wins, so retries stay idempotent.
async fn explain_conflict(db: &Db, game_id: GameId, events: &[NewEvent]) -> Error {
    for move_id in events.iter().filter_map(|e| e.move_id.as_deref()) {
        match event_by_move_id(db, game_id, move_id).await {
            Ok(Some(event)) => {
                return Error::DuplicateMove {
                    event: Box::new(event),
                };
            }
            Ok(None) => {}
            Err(e) => return e,
        }
    }
    match last_seq(db, game_id).await {
        Ok(Some(current_version)) => Error::Conflict { current_version },
        Ok(None) => Error::GameNotFound(game_id),
        Err(e) => e,
    }
}

async fn event_by_move_id(
    db: &Db,
    game_id: GameId,
    move_id: &str,
) -> Result<Option<StoredEvent>, Error> {
    let params = (game_id.to_string(), move_id);
    let row: Option<EventRow> = db.fetch_optional(sql::EVENT_BY_MOVE_ID, params).await?;
    row.map(TryInto::try_into).transpose()
}

//! The league service's tournaments: created once per operator request id,
//! then changed only by [`Store::change_tournament`], which applies a
//! [`TournamentChange`] all or nothing and only if the tournament's
//! revision is still the one its writer read. Two league services on one
//! database therefore never seat a round twice or lose a result, and every
//! event is written with the change it reports, so a watcher resuming from
//! a sequence number never sees a half-applied change.

mod change;
mod row;
mod tournament;

use sqlx::types::Json;
use uuid::Uuid;

use crate::error::is_unique_violation;
use crate::{Error, Store, rows};
pub use change::TournamentChange;
use row::{EntryRow, EventRow, TableRow, TournamentRow, count_to_db, select_tournaments};
pub use tournament::{
    NewTournament, TablePhase, Tournament, TournamentEntry, TournamentEventRow, TournamentPhase,
    TournamentTable,
};

const INSERT_TOURNAMENT: &str = "INSERT INTO tournaments (id, spec, state, round, reason, \
     revision, sequence, starts_at, constraints, created_by, request_id, created_at, updated_at) \
     VALUES ($1, $2, 'registering', 0, '', 0, 0, $3, $4, $5, $6, $7, $7)";

/// The compare-and-set: only the revision its writer read is changed.
const BUMP: &str = "UPDATE tournaments SET revision = revision + 1, sequence = sequence + $3, \
     updated_at = $4 WHERE id = $1 AND revision = $2";

const SET_PHASE: &str = "UPDATE tournaments SET state = $2, reason = $3 WHERE id = $1";
const SET_ROUND: &str = "UPDATE tournaments SET round = $2 WHERE id = $1";
const SET_STARTED: &str = "UPDATE tournaments SET started_at = $2 WHERE id = $1";
const SET_SPEC: &str = "UPDATE tournaments SET spec = $2, starts_at = $3 WHERE id = $1";
const SET_CONSTRAINTS: &str = "UPDATE tournaments SET constraints = $2 WHERE id = $1";

const UPSERT_ENTRY: &str = "INSERT INTO tournament_entries (tournament_id, account_id, rating, \
     withdrawn, registered_at, name, owner_id) VALUES ($1, $2, $3, $4, $5, $6, $7) \
     ON CONFLICT (tournament_id, account_id) DO UPDATE SET rating = excluded.rating, \
     withdrawn = excluded.withdrawn, registered_at = excluded.registered_at, name = excluded.name, \
     owner_id = excluded.owner_id";

const INSERT_TABLE: &str = "INSERT INTO tournament_tables (tournament_id, round, table_no, seats, \
     state, game_id, places, loser, no_show, finished_at, validation) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)";

const UPDATE_TABLE: &str = "UPDATE tournament_tables SET seats = $4, state = $5, game_id = $6, \
     places = $7, loser = $8, no_show = $9, finished_at = $10, validation = $11 \
     WHERE tournament_id = $1 AND round = $2 AND table_no = $3";

/// When an account lost tournament tables on time, newest first.
const NO_SHOWS: &str = "SELECT finished_at FROM tournament_tables \
     WHERE no_show = $1 AND finished_at >= $2 ORDER BY finished_at DESC LIMIT 64";

const INSERT_EVENT: &str =
    "INSERT INTO tournament_events (tournament_id, sequence, body, at) VALUES ($1, $2, $3, $4)";

const ENTRIES: &str = "SELECT account_id, rating, withdrawn, registered_at, name, owner_id \
     FROM tournament_entries WHERE tournament_id = $1 ORDER BY registered_at, account_id";

const TABLES: &str = "SELECT round, table_no, seats, state, game_id, places, loser, no_show, \
     finished_at, validation FROM tournament_tables WHERE tournament_id = $1 ORDER BY round, table_no";

const EVENTS_AFTER: &str = "SELECT sequence, body FROM tournament_events \
     WHERE tournament_id = $1 AND sequence > $2 ORDER BY sequence LIMIT $3";

/// What creating a tournament did.
#[derive(Debug, Clone, PartialEq)]
pub enum CreatedTournament {
    New(Tournament),
    /// The operator created one with this request id before: that one.
    Requested(Tournament),
}

impl Store {
    /// Stores a new tournament, registering, unless its creator already
    /// created one with the same request id.
    #[tracing::instrument(skip_all)]
    pub async fn create_tournament(&self, new: NewTournament) -> Result<CreatedTournament, Error> {
        if let Some(first) = self.requested_tournament(&new).await? {
            return Ok(CreatedTournament::Requested(first));
        }
        let id = Uuid::new_v4().hyphenated().to_string();
        let params = (
            &id,
            Json(&new.spec),
            new.starts_at,
            Json(serde_json::json!({})),
            new.created_by.0,
            new.request_id.as_deref(),
            rows::now(),
        );
        let inserted = {
            let _turn = self.db.write_turn().await;
            self.db.execute(INSERT_TOURNAMENT, params).await
        };
        match inserted {
            Ok(_) => {}
            Err(e) if is_unique_violation(&e) => {
                // A concurrent twin of this request won.
                return match self.requested_tournament(&new).await? {
                    Some(first) => Ok(CreatedTournament::Requested(first)),
                    None => Err(e.into()),
                };
            }
            Err(e) => return Err(e.into()),
        }
        let stored = self.tournament(&id).await?;
        stored
            .map(CreatedTournament::New)
            .ok_or_else(|| Error::Corrupt(format!("tournament {id} vanished")))
    }

    async fn requested_tournament(&self, new: &NewTournament) -> Result<Option<Tournament>, Error> {
        let Some(request_id) = &new.request_id else {
            return Ok(None);
        };
        let by_request = select_tournaments!("WHERE created_by = $1 AND request_id = $2");
        let params = (new.created_by.0, request_id.as_str());
        let row: Option<TournamentRow> = self.db.fetch_optional(by_request, params).await?;
        row.map(TryInto::try_into).transpose()
    }

    pub async fn tournament(&self, id: &str) -> Result<Option<Tournament>, Error> {
        let row: Option<TournamentRow> = self
            .db
            .fetch_optional(select_tournaments!("WHERE id = $1"), (id,))
            .await?;
        row.map(TryInto::try_into).transpose()
    }

    /// Newest first, at most `limit`, in `phase` if given.
    pub async fn tournaments(
        &self,
        phase: Option<TournamentPhase>,
        limit: u32,
    ) -> Result<Vec<Tournament>, Error> {
        let rows: Vec<TournamentRow> = match phase {
            Some(phase) => {
                let sql =
                    select_tournaments!("WHERE state = $1 ORDER BY created_at DESC, id LIMIT $2");
                self.db
                    .fetch_all(sql, (phase.as_str(), i64::from(limit)))
                    .await?
            }
            None => {
                let sql = select_tournaments!("ORDER BY created_at DESC, id LIMIT $1");
                self.db.fetch_all(sql, (i64::from(limit),)).await?
            }
        };
        rows.into_iter().map(TryInto::try_into).collect()
    }

    /// The tournaments `account` entered (withdrawn or not), newest first,
    /// at most `limit`: a player's tournament history.
    pub async fn tournaments_entered(
        &self,
        account: crate::AccountId,
        limit: u32,
    ) -> Result<Vec<Tournament>, Error> {
        let sql = select_tournaments!(
            "WHERE id IN (SELECT tournament_id FROM tournament_entries WHERE account_id = $1) \
             ORDER BY created_at DESC, id LIMIT $2"
        );
        let rows: Vec<TournamentRow> = self
            .db
            .fetch_all(sql, (account.0, i64::from(limit)))
            .await?;
        rows.into_iter().map(TryInto::try_into).collect()
    }

    /// Tournaments not yet ended, oldest first: the ones a league service
    /// drives.
    pub async fn live_tournaments(&self) -> Result<Vec<Tournament>, Error> {
        let sql = select_tournaments!(
            "WHERE state IN ('registering', 'running', 'paused') ORDER BY created_at, id"
        );
        let rows: Vec<TournamentRow> = self.db.fetch_all(sql, ()).await?;
        rows.into_iter().map(TryInto::try_into).collect()
    }

    /// Every entry, withdrawn ones too, in registration order.
    pub async fn tournament_entries(&self, id: &str) -> Result<Vec<TournamentEntry>, Error> {
        let rows: Vec<EntryRow> = self.db.fetch_all(ENTRIES, (id,)).await?;
        Ok(rows.into_iter().map(Into::into).collect())
    }

    /// Every table, by round and number.
    pub async fn tournament_tables(&self, id: &str) -> Result<Vec<TournamentTable>, Error> {
        let rows: Vec<TableRow> = self.db.fetch_all(TABLES, (id,)).await?;
        rows.into_iter().map(TryInto::try_into).collect()
    }

    /// When `account` lost tournament tables on time since `since`, newest
    /// first (at most 64).
    pub async fn tournament_no_shows(
        &self,
        account: crate::AccountId,
        since: time::OffsetDateTime,
    ) -> Result<Vec<time::OffsetDateTime>, Error> {
        let rows: Vec<(time::OffsetDateTime,)> =
            self.db.fetch_all(NO_SHOWS, (account.0, since)).await?;
        Ok(rows.into_iter().map(|(at,)| at).collect())
    }

    /// At most `limit` events numbered after `after`, in order.
    pub async fn tournament_events(
        &self,
        id: &str,
        after: u64,
        limit: u32,
    ) -> Result<Vec<TournamentEventRow>, Error> {
        let params = (id, rows::seq_to_db(after)?, i64::from(limit));
        let rows: Vec<EventRow> = self.db.fetch_all(EVENTS_AFTER, params).await?;
        rows.into_iter().map(TryInto::try_into).collect()
    }

    /// Applies `change` if the tournament's revision is still `revision`:
    /// `false` (and nothing written) if someone changed it since.
    #[tracing::instrument(skip(self, change))]
    pub async fn change_tournament(
        &self,
        id: &str,
        revision: u64,
        change: &TournamentChange,
    ) -> Result<bool, Error> {
        let now = rows::now();
        let events = u64::try_from(change.events.len()).unwrap_or(u64::MAX);
        let mut tx = self.db.begin().await?;
        let bumped = tx
            .execute(
                BUMP,
                (
                    id,
                    rows::seq_to_db(revision)?,
                    rows::seq_to_db(events)?,
                    now,
                ),
            )
            .await?;
        if bumped != 1 {
            tx.rollback().await?;
            return Ok(false);
        }
        if let Some((phase, reason)) = &change.phase {
            tx.execute(SET_PHASE, (id, phase.as_str(), reason.as_str()))
                .await?;
        }
        if let Some(round) = change.round {
            tx.execute(SET_ROUND, (id, count_to_db(round)?)).await?;
        }
        if let Some(spec) = &change.spec {
            let starts_at = change.starts_at.unwrap_or(None);
            tx.execute(SET_SPEC, (id, Json(spec), starts_at)).await?;
        }
        if let Some(started_at) = change.started_at {
            tx.execute(SET_STARTED, (id, started_at)).await?;
        }
        if let Some(constraints) = &change.constraints {
            tx.execute(SET_CONSTRAINTS, (id, Json(constraints))).await?;
        }
        if let Some(e) = &change.entry {
            let params = (
                id,
                e.account_id.0,
                e.rating,
                e.withdrawn,
                e.registered_at,
                e.name.as_str(),
                (e.owner != e.account_id).then_some(e.owner.0),
            );
            tx.execute(UPSERT_ENTRY, params).await?;
        }
        for (sql, tables) in [
            (INSERT_TABLE, &change.new_tables),
            (UPDATE_TABLE, &change.updated_tables),
        ] {
            for t in tables {
                let seats: Vec<i64> = t.seats.iter().map(|a| a.0).collect();
                let loser = t.loser.map(|s| rows::seat_to_db(s as usize)).transpose()?;
                let params = (
                    id,
                    count_to_db(t.round)?,
                    count_to_db(t.table)?,
                    Json(seats),
                    t.phase.as_str(),
                    t.game_id.as_deref(),
                    t.places.as_ref().map(Json),
                    loser,
                    t.no_show.map(|a| a.0),
                    t.finished_at,
                    t.validation,
                );
                if tx.execute(sql, params).await? != 1 {
                    tx.rollback().await?;
                    return Err(Error::Invalid("no such tournament table"));
                }
            }
        }
        let first = sequence_before(&mut tx, id, events).await?;
        for (i, body) in change.events.iter().enumerate() {
            let sequence = first + 1 + u64::try_from(i).unwrap_or(u64::MAX);
            let params = (id, rows::seq_to_db(sequence)?, Json(body), now);
            tx.execute(INSERT_EVENT, params).await?;
        }
        tx.commit().await?;
        Ok(true)
    }
}

/// The sequence before a change's `events`, read after its bump.
async fn sequence_before(tx: &mut crate::db::Tx<'_>, id: &str, events: u64) -> Result<u64, Error> {
    let (sequence,): (i64,) = tx
        .fetch_one("SELECT sequence FROM tournaments WHERE id = $1", (id,))
        .await?;
    Ok(rows::seq_from_db(sequence)?.saturating_sub(events))
}

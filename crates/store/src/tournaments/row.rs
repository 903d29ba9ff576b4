//! Tournament rows as both backends return them, and their checked
//! conversions.

use serde_json::Value;
use sqlx::FromRow;
use sqlx::types::Json;
use time::OffsetDateTime;

use super::tournament::{
    TablePhase, Tournament, TournamentEntry, TournamentEventRow, TournamentPhase, TournamentTable,
};
use crate::{AccountId, Error, rows};

/// `SELECT` of every tournament column, then `$filter` (a string literal).
macro_rules! select_tournaments {
    ($filter:literal) => {
        concat!(
            "SELECT id, spec, state, round, reason, revision, sequence, starts_at, \
             started_at, constraints, created_by, request_id, created_at FROM tournaments ",
            $filter
        )
    };
}
pub(crate) use select_tournaments;

#[derive(Debug, FromRow)]
pub(crate) struct TournamentRow {
    id: String,
    spec: Json<Value>,
    state: String,
    round: i32,
    reason: String,
    revision: i64,
    sequence: i64,
    starts_at: Option<OffsetDateTime>,
    started_at: Option<OffsetDateTime>,
    constraints: Json<Value>,
    created_by: i64,
    request_id: Option<String>,
    created_at: OffsetDateTime,
}

impl TryFrom<TournamentRow> for Tournament {
    type Error = Error;

    fn try_from(r: TournamentRow) -> Result<Self, Error> {
        Ok(Self {
            phase: TournamentPhase::parse(&r.state).ok_or_else(|| {
                Error::Corrupt(format!("tournament {} state {:?}", r.id, r.state))
            })?,
            round: count(r.round)?,
            revision: rows::seq_from_db(r.revision)?,
            sequence: rows::seq_from_db(r.sequence)?,
            id: r.id,
            spec: r.spec.0,
            reason: r.reason,
            starts_at: r.starts_at,
            started_at: r.started_at,
            constraints: r.constraints.0,
            created_by: AccountId(r.created_by),
            request_id: r.request_id,
            created_at: r.created_at,
        })
    }
}

#[derive(Debug, FromRow)]
pub(crate) struct EntryRow {
    account_id: i64,
    rating: f64,
    withdrawn: bool,
    registered_at: OffsetDateTime,
    name: String,
    owner_id: Option<i64>,
}

impl From<EntryRow> for TournamentEntry {
    fn from(r: EntryRow) -> Self {
        Self {
            account_id: AccountId(r.account_id),
            rating: r.rating,
            withdrawn: r.withdrawn,
            registered_at: r.registered_at,
            name: r.name,
            owner: AccountId(r.owner_id.unwrap_or(r.account_id)),
        }
    }
}

#[derive(Debug, FromRow)]
pub(crate) struct TableRow {
    round: i32,
    table_no: i32,
    seats: Json<Vec<i64>>,
    state: String,
    game_id: Option<String>,
    places: Option<Json<Vec<u32>>>,
    loser: Option<i32>,
    no_show: Option<i64>,
    finished_at: Option<OffsetDateTime>,
    validation: bool,
}

impl TryFrom<TableRow> for TournamentTable {
    type Error = Error;

    fn try_from(r: TableRow) -> Result<Self, Error> {
        Ok(Self {
            round: count(r.round)?,
            table: count(r.table_no)?,
            seats: r.seats.0.into_iter().map(AccountId).collect(),
            phase: TablePhase::parse(&r.state)
                .ok_or_else(|| Error::Corrupt(format!("table state {:?}", r.state)))?,
            game_id: r.game_id,
            places: r.places.map(|p| p.0),
            loser: r.loser.map(rows::seat_from_db).transpose()?,
            no_show: r.no_show.map(AccountId),
            finished_at: r.finished_at,
            validation: r.validation,
        })
    }
}

#[derive(Debug, FromRow)]
pub(crate) struct EventRow {
    sequence: i64,
    body: Json<Value>,
}

impl TryFrom<EventRow> for TournamentEventRow {
    type Error = Error;

    fn try_from(r: EventRow) -> Result<Self, Error> {
        Ok(Self {
            sequence: rows::seq_from_db(r.sequence)?,
            body: r.body.0,
        })
    }
}

fn count(n: i32) -> Result<u32, Error> {
    u32::try_from(n).map_err(|_| Error::Corrupt(format!("negative count {n}")))
}

/// A round or table number as stored.
pub(crate) fn count_to_db(n: u32) -> Result<i32, Error> {
    i32::try_from(n).map_err(|_| Error::Invalid("round or table number out of range"))
}

//! Rows as both backends return them, and their checked conversion into the
//! public types. Shared so Postgres and SQLite cannot decode differently.

use serde_json::Value;
use sqlx::FromRow;
use sqlx::types::Json;
use time::OffsetDateTime;

use crate::{
    Account, AccountId, AccountKind, AccountStatus, Error, Game, GameId, GameStatus, NewEvent,
    NewGame, Seed, StoredEvent,
};

#[derive(Debug, FromRow)]
pub(crate) struct EventRow {
    game_id: String,
    seq: i64,
    kind: String,
    payload: Json<Value>,
    move_id: Option<String>,
    created_at: OffsetDateTime,
}

impl TryFrom<EventRow> for StoredEvent {
    type Error = Error;

    fn try_from(r: EventRow) -> Result<Self, Error> {
        Ok(Self {
            game_id: parse_game_id(&r.game_id)?,
            seq: seq_from_db(r.seq)?,
            kind: r.kind,
            payload: r.payload.0,
            move_id: r.move_id,
            created_at: r.created_at,
        })
    }
}

#[derive(Debug, FromRow)]
pub(crate) struct AccountRow {
    id: i64,
    name: String,
    kind: String,
    token_hash: String,
    created_at: OffsetDateTime,
    house_bot: bool,
    status: String,
    status_reason: String,
    owner_id: Option<i64>,
}

impl TryFrom<AccountRow> for Account {
    type Error = Error;

    fn try_from(r: AccountRow) -> Result<Self, Error> {
        Ok(Self {
            id: AccountId(r.id),
            kind: AccountKind::parse(&r.kind)
                .ok_or_else(|| Error::Corrupt(format!("account kind {:?}", r.kind)))?,
            name: r.name,
            token_hash: r.token_hash,
            created_at: r.created_at,
            house_bot: r.house_bot,
            status: AccountStatus::parse(&r.status)
                .ok_or_else(|| Error::Corrupt(format!("account status {:?}", r.status)))?,
            status_reason: r.status_reason,
            owner: r.owner_id.map(AccountId),
        })
    }
}

/// One seat of one game, joined with the game's columns: reading a game and
/// its seats in one statement keeps the two consistent.
#[derive(Debug, FromRow)]
pub(crate) struct GameSeatRow {
    id: String,
    ruleset: Json<Value>,
    ruleset_key: String,
    created_by: i64,
    seed: String,
    commitment: String,
    status: String,
    rated: bool,
    created_at: OffsetDateTime,
    finished_at: Option<OffsetDateTime>,
    seat: i32,
    account_id: Option<i64>,
}

/// Folds rows ordered by game, then seat, into games.
pub(crate) fn games_from_rows(rows: Vec<GameSeatRow>) -> Result<Vec<Game>, Error> {
    let mut games: Vec<Game> = Vec::new();
    for r in rows {
        let id = parse_game_id(&r.id)?;
        let seat = usize::try_from(r.seat).map_err(|_| Error::Corrupt("seat".into()))?;
        let game = match games.last_mut() {
            Some(g) if g.id == id => g,
            _ => {
                games.push(Game {
                    id,
                    ruleset: r.ruleset.0,
                    ruleset_key: r.ruleset_key,
                    created_by: AccountId(r.created_by),
                    seats: Vec::new(),
                    seed: Seed::new(r.seed),
                    commitment: r.commitment,
                    status: GameStatus::parse(&r.status)
                        .ok_or_else(|| Error::Corrupt(format!("game status {:?}", r.status)))?,
                    rated: r.rated,
                    created_at: r.created_at,
                    finished_at: r.finished_at,
                });
                games
                    .last_mut()
                    .ok_or_else(|| Error::Corrupt("game".into()))?
            }
        };
        if seat != game.seats.len() {
            return Err(Error::Corrupt(format!("game {id} seats out of order")));
        }
        game.seats.push(r.account_id.map(AccountId));
    }
    Ok(games)
}

pub(crate) fn parse_game_id(s: &str) -> Result<GameId, Error> {
    s.parse()
        .map_err(|_| Error::Corrupt(format!("game id {s:?}")))
}

pub(crate) fn seq_from_db(seq: i64) -> Result<u64, Error> {
    u64::try_from(seq).map_err(|_| Error::Corrupt(format!("seq {seq}")))
}

/// Seqs are BIGINT in the database; one past `i64::MAX` is not a real game.
pub(crate) fn seq_to_db(seq: u64) -> Result<i64, Error> {
    i64::try_from(seq).map_err(|_| Error::Invalid("seq out of range"))
}

pub(crate) fn seat_from_db(seat: i32) -> Result<u32, Error> {
    u32::try_from(seat).map_err(|_| Error::Corrupt(format!("seat {seat}")))
}

pub(crate) fn seat_to_db(seat: usize) -> Result<i32, Error> {
    i32::try_from(seat).map_err(|_| Error::Invalid("too many seats"))
}

/// The current time at the precision both databases keep (Postgres stores
/// microseconds), so a value written equals the value read back.
pub(crate) fn now() -> OffsetDateTime {
    let t = OffsetDateTime::now_utc();
    t.replace_nanosecond(t.nanosecond() / 1_000 * 1_000)
        .unwrap_or(t)
}

/// The row to insert for a new game: a fresh id, and open until every seat
/// is taken (a game created with all seats filled starts at once).
pub(crate) fn new_game_row(game: NewGame) -> Result<Game, Error> {
    if game.seats.is_empty() {
        return Err(Error::Invalid("a game needs seats"));
    }
    let status = match game.seats.iter().all(Option::is_some) {
        true => GameStatus::Active,
        false => GameStatus::Open,
    };
    Ok(Game {
        id: GameId::random(),
        ruleset: game.ruleset,
        ruleset_key: game.ruleset_key,
        created_by: game.created_by,
        seats: game.seats,
        seed: game.seed,
        commitment: game.commitment,
        status,
        rated: game.rated,
        created_at: now(),
        finished_at: None,
    })
}

/// Optimistic concurrency: the first new event must follow the last stored
/// one exactly. Every game has event 0, so no last event means no game.
pub(crate) fn check_expected(
    game_id: GameId,
    last: Option<u64>,
    expected_seq: u64,
) -> Result<(), Error> {
    let current_version = last.ok_or(Error::GameNotFound(game_id))?;
    match current_version.checked_add(1) == Some(expected_seq) {
        true => Ok(()),
        false => Err(Error::Conflict { current_version }),
    }
}

/// Checks an append before touching the database.
pub(crate) fn validate_append(events: &[NewEvent]) -> Result<(), Error> {
    if events.is_empty() {
        return Err(Error::Invalid("append of no events"));
    }
    let mut ids: Vec<&str> = events.iter().filter_map(|e| e.move_id.as_deref()).collect();
    ids.sort_unstable();
    if ids.windows(2).any(|w| w[0] == w[1]) {
        return Err(Error::Invalid("one move id on two events"));
    }
    Ok(())
}

//! What can go wrong in the store, typed so the service can answer each case
//! (retry, idempotent reply, not found) without parsing database text.

use crate::{AccountId, AccountStatus, GameId, StoredEvent};

/// A store error. Database details stay in the `source` chain, for logs;
/// the `Display` text names no SQL and is safe to show.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Someone else appended first. `current_version` is the seq of the
    /// game's last stored event: re-read, re-validate and retry at
    /// `current_version + 1`.
    #[error("the game moved on: its last event is {current_version}")]
    Conflict { current_version: u64 },

    /// The move id is already in the log: the move was applied before.
    /// Answer the retry with this event instead of failing it.
    #[error("move already applied as event {}", event.seq)]
    DuplicateMove { event: Box<StoredEvent> },

    #[error("no game {0}")]
    GameNotFound(GameId),

    /// The game is not taking players (already full, or over).
    #[error("game {0} has no open seat")]
    NoOpenSeat(GameId),

    /// The creator already created a game with this request id
    /// ([`crate::Store::game_by_request_id`] finds it).
    #[error("request id already used")]
    DuplicateRequest,

    /// Another account already holds this token hash.
    #[error("token already in use")]
    TokenTaken,

    /// Another account has registered this name (its comparison key).
    #[error("name already taken")]
    NameTaken,

    /// The device is linked to an account already.
    #[error("device already linked")]
    DeviceTaken,

    /// The account is disabled or banned: nothing signs it in or gives it
    /// a credential until an operator enables it again.
    #[error("account {account} is {}", .status.as_str())]
    AccountDisabled {
        account: AccountId,
        status: AccountStatus,
    },

    /// The account holds its quota (`quota`: `open_games`,
    /// `games_per_hour` or `tickets_per_hour`): `held` of at most
    /// `limit`. Nothing was written.
    #[error("quota {quota} reached: {held} of at most {limit}")]
    QuotaExceeded {
        quota: &'static str,
        limit: u64,
        held: u64,
    },

    /// Seating the table's last bot would start a game between bots for
    /// `owner`, whose bots started `held` of at most `limit` in the last
    /// 24 hours; the oldest of them leaves the window in `retry_after`.
    /// Nothing was written.
    #[error("owner {owner}'s bots started {held} games against bots in a day, of at most {limit}")]
    BotGamesExceeded {
        owner: AccountId,
        limit: u64,
        held: u64,
        retry_after: std::time::Duration,
    },

    /// The identity provider's subject has an account already.
    #[error("identity already has an account")]
    IdentityTaken,

    /// The call itself was malformed (no events, a move id twice, ...).
    #[error("invalid request: {0}")]
    Invalid(&'static str),

    /// The URL names neither Postgres nor SQLite.
    #[error("unsupported database url: expected postgres://, postgresql:// or sqlite:")]
    UnsupportedUrl,

    /// A stored value this code cannot read: a bug or a foreign write.
    #[error("corrupt row: {0}")]
    Corrupt(String),

    /// The database cannot be reached or is not taking work: no
    /// connection within the pool's acquire timeout, a connection lost,
    /// the server shutting down, starting up or out of resources, a
    /// statement timed out or rolled back by a deadlock, or (SQLite)
    /// another process holding the write lock past the busy timeout.
    /// Nothing was written by the failing statement's transaction; worth
    /// retrying.
    #[error("the database is unavailable")]
    Unavailable(#[source] sqlx::Error),

    /// More appends are queued for group commit than it takes on: this one
    /// was shed before anything was written; worth retrying shortly.
    #[error("too many appends queued")]
    Overloaded,

    #[error("database error")]
    Database(#[source] sqlx::Error),

    #[error("database migration failed")]
    Migrate(#[source] sqlx::migrate::MigrateError),
}

impl From<sqlx::Error> for Error {
    fn from(e: sqlx::Error) -> Self {
        match is_unavailable(&e) {
            true => Self::Unavailable(e),
            false => Self::Database(e),
        }
    }
}

impl From<sqlx::migrate::MigrateError> for Error {
    fn from(e: sqlx::migrate::MigrateError) -> Self {
        Self::Migrate(e)
    }
}

/// Whether a Postgres SQLSTATE says the server cannot serve the statement
/// now, though it may in a moment, with nothing written: a connection
/// exception (class 08), insufficient resources (class 53: too many
/// connections, out of memory or disk), an administrator or crash
/// shutdown or a server still starting (57P01-57P03), a statement
/// cancelled (57014, a statement timeout), a lock not to be had (55P03),
/// or a transaction rolled back by a serialization failure or a deadlock
/// (40001, 40P01).
fn pg_unavailable(code: &str) -> bool {
    code.starts_with("08")
        || code.starts_with("53")
        || matches!(
            code,
            "57P01" | "57P02" | "57P03" | "57014" | "55P03" | "40001" | "40P01"
        )
}

/// Whether a Postgres SQLSTATE says the session itself is gone or going:
/// a connection exception, or the server shutting down or starting.
fn pg_session_gone(code: &str) -> bool {
    code.starts_with("08") || matches!(code, "57P01" | "57P02" | "57P03")
}

/// Whether the connection that gave `e` may be unusable: an error from
/// below SQL, Postgres saying the session is over, or SQLite busy. Any
/// other database error (a violated key, a deadlock, a timeout) was
/// answered by the server on a connection that still works.
pub(crate) fn connection_unusable(e: &sqlx::Error) -> bool {
    match e.as_database_error() {
        None => true,
        Some(d) => match d.try_downcast_ref::<sqlx::postgres::PgDatabaseError>() {
            Some(pg) => pg_session_gone(pg.code()),
            None => is_unavailable(e),
        },
    }
}

/// SQLite's primary result code for a lock held past the busy timeout.
const SQLITE_BUSY: i64 = 5;
/// SQLite's primary result code for a table locked by another connection
/// of the same shared cache.
const SQLITE_LOCKED: i64 = 6;

/// Whether `e` says the database cannot be reached or is not taking work,
/// rather than that the statement itself failed: what a client may retry.
pub(crate) fn is_unavailable(e: &sqlx::Error) -> bool {
    match e {
        sqlx::Error::PoolTimedOut
        | sqlx::Error::PoolClosed
        | sqlx::Error::Io(_)
        | sqlx::Error::Tls(_)
        | sqlx::Error::WorkerCrashed => true,
        sqlx::Error::Database(d) => {
            if let Some(pg) = d.try_downcast_ref::<sqlx::postgres::PgDatabaseError>() {
                pg_unavailable(pg.code())
            } else if d.try_downcast_ref::<sqlx::sqlite::SqliteError>().is_some() {
                // SQLite's code is its extended result code; the primary
                // code is its low byte.
                d.code()
                    .and_then(|c| c.parse::<i64>().ok())
                    .is_some_and(|c| matches!(c & 0xff, SQLITE_BUSY | SQLITE_LOCKED))
            } else {
                false
            }
        }
        _ => false,
    }
}

/// Maps a unique violation on inserting a token's hash to
/// [`Error::TokenTaken`].
pub(crate) fn explain_token_insert(e: sqlx::Error) -> Error {
    match is_unique_violation(&e) {
        true => Error::TokenTaken,
        false => e.into(),
    }
}

/// Whether a database error is a unique-constraint violation.
pub(crate) fn is_unique_violation(e: &sqlx::Error) -> bool {
    e.as_database_error()
        .is_some_and(|d| d.is_unique_violation())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_outage_is_told_apart_from_a_failed_statement() {
        let refused = std::io::Error::from(std::io::ErrorKind::ConnectionRefused);

        assert!(matches!(
            Error::from(sqlx::Error::PoolTimedOut),
            Error::Unavailable(_)
        ));
        assert!(matches!(
            Error::from(sqlx::Error::Io(refused)),
            Error::Unavailable(_)
        ));
        assert!(matches!(
            Error::from(sqlx::Error::RowNotFound),
            Error::Database(_)
        ));
        assert!(pg_unavailable("57P01"), "admin shutdown");
        assert!(pg_unavailable("08006"), "connection failure");
        assert!(pg_unavailable("53300"), "too many connections");
        assert!(pg_unavailable("53200"), "out of memory");
        assert!(pg_unavailable("57014"), "statement timeout");
        assert!(pg_unavailable("40P01"), "deadlock");
        assert!(!pg_unavailable("23505"), "unique violation");
        assert!(!pg_unavailable("22021"), "bad text");
    }
}

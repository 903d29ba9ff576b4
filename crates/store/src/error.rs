//! What can go wrong in the store, typed so the service can answer each case
//! (retry, idempotent reply, not found) without parsing database text.

use crate::{GameId, StoredEvent};

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

    /// The call itself was malformed (no events, a move id twice, ...).
    #[error("invalid request: {0}")]
    Invalid(&'static str),

    /// The URL names neither Postgres nor SQLite.
    #[error("unsupported database url: expected postgres://, postgresql:// or sqlite:")]
    UnsupportedUrl,

    /// A stored value this code cannot read: a bug or a foreign write.
    #[error("corrupt row: {0}")]
    Corrupt(String),

    #[error("database error")]
    Database(#[source] sqlx::Error),

    #[error("database migration failed")]
    Migrate(#[source] sqlx::migrate::MigrateError),
}

impl From<sqlx::Error> for Error {
    fn from(e: sqlx::Error) -> Self {
        Self::Database(e)
    }
}

impl From<sqlx::migrate::MigrateError> for Error {
    fn from(e: sqlx::migrate::MigrateError) -> Self {
        Self::Migrate(e)
    }
}

/// Whether a database error is a unique-constraint violation.
pub(crate) fn is_unique_violation(e: &sqlx::Error) -> bool {
    e.as_database_error()
        .is_some_and(|d| d.is_unique_violation())
}

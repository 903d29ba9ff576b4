//! How a store's connection pool is sized, and how long a statement waits
//! for a connection before the store gives up on the database.

use std::time::Duration;

/// sqlx's default pool size.
const DEFAULT_MAX_CONNECTIONS: u32 = 10;

/// How long a statement waits for a connection by default: long enough to
/// ride out a busy moment, short enough that a client whose database is
/// down hears so (and when to retry) well before its own deadline.
const DEFAULT_ACQUIRE_TIMEOUT: Duration = Duration::from_secs(5);

/// The settings of a store's connection pool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PoolSettings {
    /// Pooled Postgres connections for queries and appends (SQLite keeps
    /// sqlx's default: it has one writer anyway).
    pub max_connections: u32,
    /// The longest a statement waits for a connection: for a free one, or
    /// for a new one while the server refuses or does not answer. Past it
    /// the statement fails with [`crate::Error::Unavailable`]. Starting
    /// the store waits as long for its first connection.
    pub acquire_timeout: Duration,
}

impl Default for PoolSettings {
    fn default() -> Self {
        Self {
            max_connections: DEFAULT_MAX_CONNECTIONS,
            acquire_timeout: DEFAULT_ACQUIRE_TIMEOUT,
        }
    }
}

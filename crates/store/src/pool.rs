//! How a store's connection pool is sized, and how long a statement waits
//! for a connection before the store gives up on the database.

use std::time::Duration;

/// The smallest default pool: sqlx's own default.
const MIN_MAX_CONNECTIONS: u32 = 10;

/// Default pooled connections per core: a core keeps about two busy
/// while the others wait on the disk's flush.
const CONNECTIONS_PER_CORE: u32 = 2;

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

/// The machine's cores, as the pool and the committers size themselves.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

impl Default for PoolSettings {
    /// Two connections per core, at least ten.
    fn default() -> Self {
        let cores = u32::try_from(cores()).unwrap_or(u32::MAX);
        Self {
            max_connections: cores
                .saturating_mul(CONNECTIONS_PER_CORE)
                .max(MIN_MAX_CONNECTIONS),
            acquire_timeout: DEFAULT_ACQUIRE_TIMEOUT,
        }
    }
}

//! How a store's connection pool is sized, and how long a statement waits
//! for a connection before the store gives up on the database.

use std::time::Duration;

/// The default pool: a fixed size, not one that follows the machine's
/// cores, so the connections of every instance at an autoscaler's maximum
/// add up to a known figure under PostgreSQL's `max_connections`
/// (docs/operations.md, "Connections"). Ten keep two cores busy while the
/// others wait on the disk's flush (docs/performance.md).
const DEFAULT_MAX_CONNECTIONS: u32 = 10;

/// How long a statement waits for a connection by default: long enough to
/// ride out a busy moment, short enough that a client whose database is
/// down hears so (and when to retry) well before its own deadline.
const DEFAULT_ACQUIRE_TIMEOUT: Duration = Duration::from_secs(5);

/// How long a starting store waits for a database that does not answer
/// yet by default: a container stack starts its database and services
/// together, and PostgreSQL's first start (initdb) takes seconds.
const DEFAULT_STARTUP_WAIT: Duration = Duration::from_secs(60);

/// The settings of a store's connection pool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PoolSettings {
    /// Pooled Postgres connections for queries and appends (SQLite keeps
    /// sqlx's default: it has one writer anyway).
    pub max_connections: u32,
    /// The longest a statement waits for a connection: for a free one, or
    /// for a new one while the server refuses or does not answer. Past it
    /// the statement fails with [`crate::Error::Unavailable`]. Starting
    /// the store waits as long for each try at its first connection.
    pub acquire_timeout: Duration,
    /// How long starting the store keeps trying while the database is
    /// unavailable (refused, not resolving, starting up), with backoff,
    /// before it gives up with [`crate::Error::Unavailable`]. Zero: one try.
    pub startup_wait: Duration,
}

/// The machine's cores, as the pool and the committers size themselves.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

impl Default for PoolSettings {
    /// Ten connections; a minute's wait at start.
    fn default() -> Self {
        Self {
            max_connections: DEFAULT_MAX_CONNECTIONS,
            acquire_timeout: DEFAULT_ACQUIRE_TIMEOUT,
            startup_wait: DEFAULT_STARTUP_WAIT,
        }
    }
}

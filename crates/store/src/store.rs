//! [`Store`]: one type for the service, whichever database the URL names.

use std::future::Future;
use std::pin::Pin;

use tokio::sync::broadcast;

use crate::db::Db;
use crate::{Appended, Error, PoolSettings};

/// The first pause between tries at a database that is unavailable at start.
const STARTUP_FIRST_PAUSE: std::time::Duration = std::time::Duration::from_millis(250);
/// The longest pause between such tries.
const STARTUP_MAX_PAUSE: std::time::Duration = std::time::Duration::from_secs(4);

/// The event log and tables, on Postgres or SQLite. Cheap to clone (each
/// backend is a connection pool); clones share notifications.
#[derive(Debug, Clone)]
pub struct Store {
    pub(crate) db: Db,
}

impl Store {
    /// Connects by URL scheme (`postgres://`, `postgresql://` or `sqlite:`)
    /// with the default [`PoolSettings`], and brings the schema up to date.
    pub async fn connect(url: &str) -> Result<Self, Error> {
        Self::connect_with(url, PoolSettings::default()).await
    }

    /// As [`Store::connect`], with the pool's size, acquire timeout and
    /// startup wait given. While the database is unavailable (not yet
    /// listening, its name not resolving yet, starting up) it tries again
    /// with backoff until `pool.startup_wait` has passed, so a service
    /// started beside its database waits for it instead of exiting.
    pub async fn connect_with(url: &str, pool: PoolSettings) -> Result<Self, Error> {
        let started = tokio::time::Instant::now();
        let mut pause = STARTUP_FIRST_PAUSE;
        loop {
            match Db::connect(url, pool).await {
                Ok(db) => return Ok(Self { db }),
                Err(Error::Unavailable(e)) if started.elapsed() + pause < pool.startup_wait => {
                    tracing::warn!(error = %e, ?pause, "the database is unavailable; trying again");
                    tokio::time::sleep(pause).await;
                    pause = (pause * 2).min(STARTUP_MAX_PAUSE);
                }
                Err(e) => return Err(e),
            }
        }
    }

    /// How many appends to write at once when each is a commit of its own
    /// (group commit off), each by a task that keeps a connection: one on
    /// SQLite, which has one writer anyway; on Postgres half the pool, so
    /// reads always find a connection.
    pub fn solo_writers(&self) -> usize {
        self.db.solo_writers()
    }

    /// How many group committers suit the machine and the database
    /// ([`crate::GroupCommit::start`] with none asked for).
    pub fn group_committers(&self) -> usize {
        self.db.group_committers()
    }

    /// Whether the database answers: `SELECT 1` on a pooled connection
    /// (for the health service; it fails while the server is down or
    /// refuses connections).
    pub async fn ping(&self) -> Result<(), Error> {
        self.db.execute("SELECT 1", ()).await?;
        Ok(())
    }

    /// [`Store::ping`] as a function a task can own and call again and
    /// again (a health check's loop).
    pub fn pinger(
        &self,
    ) -> impl FnMut() -> Pin<Box<dyn Future<Output = Result<(), Error>> + Send>> + Send + 'static
    {
        let store = self.clone();
        move || {
            let store = store.clone();
            Box::pin(async move { store.ping().await })
        }
    }

    /// Waits for open connections to finish and closes them (for SQLite:
    /// releases the file).
    pub async fn close(&self) {
        self.db.close().await;
    }

    /// What a service does with its store as it stops, once every other
    /// user of the store is done: lets a restart in the same process open
    /// the database again. On SQLite that closes the pool, releasing the
    /// file. On Postgres nothing is needed, and closing would wait for the
    /// notice listener, which lets its connection go only with the last
    /// clone of the store.
    pub async fn shutdown(&self) {
        self.db.shutdown().await;
    }

    /// Notices of appends by any instance sharing the database (for SQLite:
    /// this process), starting now.
    pub fn subscribe(&self) -> broadcast::Receiver<Appended> {
        self.db.subscribe()
    }
}

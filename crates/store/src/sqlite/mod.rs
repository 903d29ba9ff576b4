//! The embedded backend: one SQLite file, so the service runs with no
//! database server. One instance only: notices stay in-process. Its own
//! are connecting (durable settings, the schema), the turn at its one
//! writer and its statements that differ (`dialect`); its append round is
//! `crate::batch::sqlite`.

mod dialect;
#[cfg(all(test, feature = "testing"))]
mod plans;

use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
};
use tokio::sync::{Mutex, MutexGuard, broadcast};

use crate::{Appended, Error, PoolSettings};
pub(crate) use dialect::DIALECT;

static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("../../migrations/sqlite");

/// How long a writer waits for another writer before failing.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// SQLite allows one writer; taking the write lock at BEGIN (not at the
/// first write) means a transaction never reads a snapshot it then cannot
/// write on top of, which would fail with SQLITE_BUSY instead of waiting.
pub(crate) const BEGIN_WRITE: &str = "BEGIN IMMEDIATE";

#[derive(Debug, Clone)]
pub(crate) struct Backend {
    pub(crate) pool: SqlitePool,
    appended: broadcast::Sender<Appended>,
    /// Turns at SQLite's one writer (see [`Backend::write_turn`]).
    writer: Arc<Mutex<()>>,
}

impl Backend {
    /// Opens (with `mode=rwc` in the URL: creates) the file and migrates it.
    /// Its pool waits for a connection as long as `settings` says.
    pub(crate) async fn connect(url: &str, settings: PoolSettings) -> Result<Self, Error> {
        let options = SqliteConnectOptions::from_str(url)?
            // WAL lets readers run beside the writer; FULL syncs the WAL on
            // every commit, so an acknowledged move survives a power cut.
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Full)
            .foreign_keys(true)
            .busy_timeout(BUSY_TIMEOUT);
        let pool = SqlitePoolOptions::new()
            .acquire_timeout(settings.acquire_timeout)
            .connect_with(options)
            .await?;
        MIGRATOR.run(&pool).await?;
        let (appended, _) = broadcast::channel(crate::NOTICE_BUFFER);
        Ok(Self {
            pool,
            appended,
            writer: Arc::new(Mutex::new(())),
        })
    }

    /// A turn at SQLite's one writer, first come first served; every write
    /// of the store takes one before it begins. SQLite itself lets waiting
    /// writers poll (its busy handler sleeps and retries), so under a
    /// steady stream of group commits a lone write, such as a game's
    /// finish, lost the race for a second or more.
    pub(crate) async fn write_turn(&self) -> MutexGuard<'_, ()> {
        self.writer.lock().await
    }

    /// Waits for open connections to finish and closes them, releasing the
    /// file.
    pub(crate) async fn close(&self) {
        self.pool.close().await;
    }

    pub(crate) fn subscribe(&self) -> broadcast::Receiver<Appended> {
        self.appended.subscribe()
    }

    /// Tells this process's subscribers which games grew.
    pub(crate) fn notify(&self, notices: Vec<Appended>) {
        for notice in notices {
            // No receivers is fine: nobody is watching this game.
            let _ = self.appended.send(notice);
        }
    }
}

#[cfg(all(test, feature = "testing"))]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::Backend;
    use crate::PoolSettings;
    use crate::testing::TestDb;

    /// The durability settings reach every pooled connection.
    #[tokio::test]
    async fn connections_are_durable() {
        let db = TestDb::sqlite();
        let store = Backend::connect(db.url(), PoolSettings::default())
            .await
            .unwrap();
        let mut conn = store.pool.acquire().await.unwrap();
        let journal = sqlx::query_scalar::<_, String>("PRAGMA journal_mode");
        assert_eq!(journal.fetch_one(&mut *conn).await.unwrap(), "wal");
        let synchronous = sqlx::query_scalar::<_, i64>("PRAGMA synchronous");
        assert_eq!(
            synchronous.fetch_one(&mut *conn).await.unwrap(),
            2,
            "2 is FULL"
        );
        let foreign_keys = sqlx::query_scalar::<_, i64>("PRAGMA foreign_keys");
        assert_eq!(foreign_keys.fetch_one(&mut *conn).await.unwrap(), 1);
    }
}

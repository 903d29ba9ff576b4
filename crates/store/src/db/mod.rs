//! The database a store runs on, chosen once from its URL: the one enum
//! over the backends. Statements run through [`Db`] and [`Tx`] whichever
//! backend it is (`run`, `tx`); the rest that differs is asked of it here
//! (how notices travel, the turn at SQLite's one writer, the dialect).
//! Services and the store's own tables never name a backend.

mod params;
mod run;
mod tx;

use tokio::sync::{MutexGuard, broadcast};

use crate::dialect::Dialect;
use crate::{Appended, Error, PoolSettings, postgres, sqlite};
pub(crate) use params::{Params, Record};
pub(crate) use tx::Tx;

#[derive(Debug, Clone)]
pub(crate) enum Db {
    Postgres(postgres::Backend),
    Sqlite(sqlite::Backend),
}

impl Db {
    /// Connects by URL scheme (`postgres://`, `postgresql://` or `sqlite:`)
    /// with a pool as `pool` says, and brings the schema up to date.
    pub(crate) async fn connect(url: &str, pool: PoolSettings) -> Result<Self, Error> {
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Ok(Self::Postgres(postgres::Backend::connect(url, pool).await?))
        } else if url.starts_with("sqlite:") {
            Ok(Self::Sqlite(sqlite::Backend::connect(url, pool).await?))
        } else {
            Err(Error::UnsupportedUrl)
        }
    }

    /// The backend's texts of the statements that differ.
    pub(crate) fn dialect(&self) -> &'static Dialect {
        match self {
            Self::Postgres(_) => &postgres::DIALECT,
            Self::Sqlite(_) => &sqlite::DIALECT,
        }
    }

    /// Notices of appends by any instance sharing the database (for SQLite:
    /// this process), starting now.
    pub(crate) fn subscribe(&self) -> broadcast::Receiver<Appended> {
        match self {
            Self::Postgres(b) => b.subscribe(),
            Self::Sqlite(b) => b.subscribe(),
        }
    }

    /// Announces, after their commit, which games grew (each with its last
    /// seq; 0 for a change of seats).
    pub(crate) fn notify(&self, notices: Vec<Appended>) {
        match self {
            Self::Postgres(b) => b.notify(notices),
            Self::Sqlite(b) => b.notify(notices),
        }
    }

    /// A turn at the writer, held until dropped; `None` where writers need
    /// none (Postgres). Every write outside [`Db::begin`] takes one.
    pub(crate) async fn write_turn(&self) -> Option<MutexGuard<'_, ()>> {
        match self {
            Self::Postgres(_) => None,
            Self::Sqlite(b) => Some(b.write_turn().await),
        }
    }

    /// How many appends to write at once when each is a commit of its own:
    /// one on SQLite, which has one writer anyway; on Postgres half the
    /// pool, so reads always find a connection.
    pub(crate) fn solo_writers(&self) -> usize {
        match self {
            Self::Postgres(b) => b.solo_writers(),
            Self::Sqlite(_) => 1,
        }
    }

    /// How many group committers to run when none are asked for: one on
    /// SQLite, where more only queue at its one writer with smaller
    /// batches; on Postgres one per four cores.
    pub(crate) fn group_committers(&self) -> usize {
        match self {
            Self::Postgres(b) => b.group_committers(),
            Self::Sqlite(_) => 1,
        }
    }

    /// Waits for open connections to finish and closes them.
    pub(crate) async fn close(&self) {
        match self {
            Self::Postgres(b) => b.close().await,
            Self::Sqlite(b) => b.close().await,
        }
    }

    /// As [`crate::Store::shutdown`]: closes SQLite's pool, releasing the
    /// file; nothing on Postgres.
    pub(crate) async fn shutdown(&self) {
        match self {
            Self::Postgres(_) => {}
            Self::Sqlite(b) => b.close().await,
        }
    }
}

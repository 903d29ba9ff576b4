//! A write transaction on either backend, with the same statements as
//! [`Db`](super::Db): what a transaction's steps, written once, run on.

use sqlx::{Postgres, Sqlite, Transaction};
use tokio::sync::MutexGuard;

use super::{Params, Record};

/// Rolled back if dropped before [`Tx::commit`].
#[derive(Debug)]
pub(crate) struct Tx<'a> {
    inner: Inner<'a>,
    /// SQLite's writer turn: declared after `inner`, so it is released only
    /// once the transaction is done with.
    _turn: Option<MutexGuard<'a, ()>>,
}

#[derive(Debug)]
enum Inner<'a> {
    Postgres(Transaction<'a, Postgres>),
    Sqlite(Transaction<'a, Sqlite>),
}

impl<'a> Tx<'a> {
    pub(crate) fn postgres(tx: Transaction<'a, Postgres>) -> Self {
        Self {
            inner: Inner::Postgres(tx),
            _turn: None,
        }
    }

    /// A SQLite transaction begun in the writer's `turn`.
    pub(crate) fn sqlite(tx: Transaction<'a, Sqlite>, turn: MutexGuard<'a, ()>) -> Self {
        Self {
            inner: Inner::Sqlite(tx),
            _turn: Some(turn),
        }
    }

    pub(crate) async fn commit(self) -> Result<(), sqlx::Error> {
        match self.inner {
            Inner::Postgres(tx) => tx.commit().await,
            Inner::Sqlite(tx) => tx.commit().await,
        }
    }

    pub(crate) async fn rollback(self) -> Result<(), sqlx::Error> {
        match self.inner {
            Inner::Postgres(tx) => tx.rollback().await,
            Inner::Sqlite(tx) => tx.rollback().await,
        }
    }

    pub(crate) async fn fetch_optional<R: Record>(
        &mut self,
        sql: &'static str,
        params: impl Params<'_>,
    ) -> Result<Option<R>, sqlx::Error> {
        match &mut self.inner {
            Inner::Postgres(tx) => {
                let query = sqlx::query_as_with(sql, params.postgres()?);
                query.fetch_optional(&mut **tx).await
            }
            Inner::Sqlite(tx) => {
                let query = sqlx::query_as_with(sql, params.sqlite()?);
                query.fetch_optional(&mut **tx).await
            }
        }
    }

    pub(crate) async fn fetch_all<R: Record>(
        &mut self,
        sql: &'static str,
        params: impl Params<'_>,
    ) -> Result<Vec<R>, sqlx::Error> {
        match &mut self.inner {
            Inner::Postgres(tx) => {
                let query = sqlx::query_as_with(sql, params.postgres()?);
                query.fetch_all(&mut **tx).await
            }
            Inner::Sqlite(tx) => {
                let query = sqlx::query_as_with(sql, params.sqlite()?);
                query.fetch_all(&mut **tx).await
            }
        }
    }

    pub(crate) async fn fetch_one<R: Record>(
        &mut self,
        sql: &'static str,
        params: impl Params<'_>,
    ) -> Result<R, sqlx::Error> {
        match &mut self.inner {
            Inner::Postgres(tx) => {
                let query = sqlx::query_as_with(sql, params.postgres()?);
                query.fetch_one(&mut **tx).await
            }
            Inner::Sqlite(tx) => {
                let query = sqlx::query_as_with(sql, params.sqlite()?);
                query.fetch_one(&mut **tx).await
            }
        }
    }

    /// Runs a statement that returns no rows; how many rows it changed.
    pub(crate) async fn execute(
        &mut self,
        sql: &'static str,
        params: impl Params<'_>,
    ) -> Result<u64, sqlx::Error> {
        match &mut self.inner {
            Inner::Postgres(tx) => {
                let query = sqlx::query_with(sql, params.postgres()?);
                Ok(query.execute(&mut **tx).await?.rows_affected())
            }
            Inner::Sqlite(tx) => {
                let query = sqlx::query_with(sql, params.sqlite()?);
                Ok(query.execute(&mut **tx).await?.rows_affected())
            }
        }
    }
}

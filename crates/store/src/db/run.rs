//! Running one statement on the pool, and beginning a transaction: the
//! same call on either backend, each with its own arguments and rows.

use super::{Db, Params, Record, Tx};
use crate::sqlite::BEGIN_WRITE;

impl Db {
    pub(crate) async fn fetch_all<R: Record>(
        &self,
        sql: &'static str,
        params: impl Params<'_>,
    ) -> Result<Vec<R>, sqlx::Error> {
        match self {
            Self::Postgres(b) => {
                let query = sqlx::query_as_with(sql, params.postgres()?);
                query.fetch_all(&b.pool).await
            }
            Self::Sqlite(b) => {
                let query = sqlx::query_as_with(sql, params.sqlite()?);
                query.fetch_all(&b.pool).await
            }
        }
    }

    pub(crate) async fn fetch_optional<R: Record>(
        &self,
        sql: &'static str,
        params: impl Params<'_>,
    ) -> Result<Option<R>, sqlx::Error> {
        match self {
            Self::Postgres(b) => {
                let query = sqlx::query_as_with(sql, params.postgres()?);
                query.fetch_optional(&b.pool).await
            }
            Self::Sqlite(b) => {
                let query = sqlx::query_as_with(sql, params.sqlite()?);
                query.fetch_optional(&b.pool).await
            }
        }
    }

    pub(crate) async fn fetch_one<R: Record>(
        &self,
        sql: &'static str,
        params: impl Params<'_>,
    ) -> Result<R, sqlx::Error> {
        match self {
            Self::Postgres(b) => {
                let query = sqlx::query_as_with(sql, params.postgres()?);
                query.fetch_one(&b.pool).await
            }
            Self::Sqlite(b) => {
                let query = sqlx::query_as_with(sql, params.sqlite()?);
                query.fetch_one(&b.pool).await
            }
        }
    }

    /// Runs a statement that returns no rows; how many rows it changed.
    pub(crate) async fn execute(
        &self,
        sql: &'static str,
        params: impl Params<'_>,
    ) -> Result<u64, sqlx::Error> {
        match self {
            Self::Postgres(b) => {
                let query = sqlx::query_with(sql, params.postgres()?);
                Ok(query.execute(&b.pool).await?.rows_affected())
            }
            Self::Sqlite(b) => {
                let query = sqlx::query_with(sql, params.sqlite()?);
                Ok(query.execute(&b.pool).await?.rows_affected())
            }
        }
    }

    /// Begins a write transaction. On SQLite it holds the writer's turn
    /// and takes the write lock up front (`BEGIN IMMEDIATE`), so writers
    /// queue instead of failing; on Postgres it is a plain transaction, and
    /// statements that must hold rows say so (`FOR UPDATE`, see the
    /// dialect).
    pub(crate) async fn begin(&self) -> Result<Tx<'_>, sqlx::Error> {
        match self {
            Self::Postgres(b) => Ok(Tx::postgres(b.pool.begin().await?)),
            Self::Sqlite(b) => {
                let turn = b.write_turn().await;
                let tx = b.pool.begin_with(BEGIN_WRITE).await?;
                Ok(Tx::sqlite(tx, turn))
            }
        }
    }
}

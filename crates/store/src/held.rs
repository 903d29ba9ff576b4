//! A pooled connection that one long-lived task keeps between statements
//! (a group committer, the Postgres notice sender).
//!
//! sqlx pings a pooled connection when it is handed back (and, unless told
//! otherwise, when it is taken): a round trip to the Postgres server, a
//! hop to the connection's worker thread on SQLite. For a task that sends
//! hundreds of statements a second those pings cost as much as the
//! statements, so it takes a connection once and keeps it. A connection
//! that failed below SQL (closed, broken, timed out) is given up and the
//! next statement takes a fresh one.

use sqlx::pool::PoolConnection;
use sqlx::{Database, Pool};

use crate::Error;
use crate::error::connection_unusable;

/// The kept connection, taken from `pool` on first use.
#[derive(Debug)]
pub(crate) struct Held<DB: Database> {
    pool: Pool<DB>,
    connection: Option<PoolConnection<DB>>,
}

impl<DB: Database> Held<DB> {
    pub(crate) fn new(pool: Pool<DB>) -> Self {
        Self {
            pool,
            connection: None,
        }
    }

    /// The connection, taken from the pool if none is kept.
    pub(crate) async fn get(&mut self) -> Result<&mut DB::Connection, sqlx::Error> {
        let connection = match self.connection.take() {
            Some(connection) => connection,
            None => self.pool.acquire().await?,
        };
        Ok(&mut **self.connection.insert(connection))
    }

    /// Passes `result` through; gives the connection up if the error came
    /// from below SQL or said the server is going away, as the connection
    /// may then be unusable. Any other database error (a violated key, say)
    /// was answered by the server, so the connection is still good.
    pub(crate) fn check<T>(&mut self, result: Result<T, sqlx::Error>) -> Result<T, sqlx::Error> {
        if let Err(error) = &result {
            self.after(error);
        }
        result
    }

    /// As [`Held::check`], for a store error.
    pub(crate) fn check_store<T>(&mut self, result: Result<T, Error>) -> Result<T, Error> {
        if let Err(Error::Database(error) | Error::Unavailable(error)) = &result {
            self.after(error);
        }
        result
    }

    fn after(&mut self, error: &sqlx::Error) {
        if connection_unusable(error) {
            self.connection = None;
        }
    }
}

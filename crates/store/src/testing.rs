//! Fresh, private databases for tests (feature `testing`): here for the
//! store's contract suite, and for the services' integration tests.
//!
//! Every test gets its own database, so tests run in parallel and never see
//! each other's rows. A missing Postgres server fails the test, with how to
//! start one, rather than skipping it: a skipped suite looks like a passing
//! one.

use std::path::PathBuf;

use sqlx::{AssertSqlSafe, Connection, PgConnection};
use tempfile::TempDir;

use crate::{Error, Store};

/// The server used when `DATABASE_URL` is not set.
pub const DEFAULT_POSTGRES_URL: &str = "postgres://postgres@127.0.0.1:5432/postgres";

/// A database that lives as long as this value.
#[derive(Debug)]
pub struct TestDb {
    url: String,
    kind: Kind,
}

#[derive(Debug)]
enum Kind {
    Sqlite { dir: TempDir },
    Postgres { admin_url: String, name: String },
}

impl TestDb {
    /// A new SQLite file in a temporary directory, removed on drop.
    pub fn sqlite() -> Self {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("temp dir: {e}"));
        let path = dir.path().join("skitgubbe.db");
        Self {
            url: format!("sqlite://{}?mode=rwc", path.display()),
            kind: Kind::Sqlite { dir },
        }
    }

    /// A new database `skit_test_<random>` on the server at `DATABASE_URL`
    /// (else [`DEFAULT_POSTGRES_URL`]), dropped on drop.
    ///
    /// # Panics
    /// If the server cannot be reached, saying how to start one.
    pub async fn postgres() -> Self {
        let admin_url =
            std::env::var("DATABASE_URL").unwrap_or_else(|_| DEFAULT_POSTGRES_URL.to_owned());
        let mut admin = PgConnection::connect(&admin_url).await.unwrap_or_else(|e| {
            panic!(
                "cannot reach PostgreSQL at {admin_url}: {e}\n\
                 Start the local server with\n    \
                 pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start\n\
                 or set DATABASE_URL to a server where this user may CREATE DATABASE."
            )
        });
        let name = format!("skit_test_{}", uuid::Uuid::new_v4().simple());
        // The name is generated above, never user input.
        sqlx::query(AssertSqlSafe(format!("CREATE DATABASE {name}")))
            .execute(&mut admin)
            .await
            .unwrap_or_else(|e| panic!("CREATE DATABASE {name}: {e}"));
        drop(admin.close().await);
        Self {
            url: with_database(&admin_url, &name),
            kind: Kind::Postgres { admin_url, name },
        }
    }

    /// The URL to pass to [`Store::connect`] (or to a service's config).
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The SQLite file, for tests that look at it directly.
    pub fn sqlite_path(&self) -> Option<PathBuf> {
        match &self.kind {
            Kind::Sqlite { dir } => Some(dir.path().join("skitgubbe.db")),
            Kind::Postgres { .. } => None,
        }
    }

    /// A store on this database; call again for a second "instance".
    pub async fn connect(&self) -> Result<Store, Error> {
        Store::connect(&self.url).await
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        let Kind::Postgres { admin_url, name } = &self.kind else {
            return;
        };
        let (admin_url, name) = (admin_url.clone(), name.clone());
        // Drop cannot await, and may run inside a runtime that cannot
        // block; a thread with its own runtime can do both. Best effort:
        // a leftover test database is harmless.
        let dropper = std::thread::spawn(move || {
            let Ok(runtime) = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            else {
                return;
            };
            runtime.block_on(async {
                if let Ok(mut admin) = PgConnection::connect(&admin_url).await {
                    // FORCE: the store's pools and listener may still be open.
                    let sql = format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)");
                    drop(sqlx::query(AssertSqlSafe(sql)).execute(&mut admin).await);
                }
            });
        });
        drop(dropper.join());
    }
}

/// `url` with its database (path) replaced by `name`, keeping any query.
fn with_database(url: &str, name: &str) -> String {
    let (base, query) = url
        .split_once('?')
        .map_or((url, None), |(b, q)| (b, Some(q)));
    let host_start = base.find("://").map_or(0, |i| i + 3);
    let base = match base[host_start..].find('/') {
        Some(i) => &base[..host_start + i],
        None => base,
    };
    match query {
        Some(q) => format!("{base}/{name}?{q}"),
        None => format!("{base}/{name}"),
    }
}

#[cfg(test)]
mod tests {
    use super::with_database;

    #[test]
    fn database_is_replaced_in_urls() {
        assert_eq!(
            with_database("postgres://u@h:5432/postgres", "t"),
            "postgres://u@h:5432/t"
        );
        assert_eq!(with_database("postgres://h", "t"), "postgres://h/t");
        assert_eq!(
            with_database("postgresql://h/db?sslmode=disable", "t"),
            "postgresql://h/t?sslmode=disable"
        );
    }
}

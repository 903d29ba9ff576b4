//! The server backend: Postgres, shared by any number of service
//! instances. Its own are connecting (durable sessions, generic plans, the
//! schema), notices of appends to every instance through `LISTEN`/`NOTIFY`
//! (`listener`, `notifier`) and its statements that differ (`dialect`);
//! its append round is `crate::batch::postgres`.

mod dialect;
mod listener;
mod notifier;
#[cfg(all(test, feature = "testing"))]
mod plans;
mod pool_gauges;

use std::str::FromStr;
use std::sync::Arc;

use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};
use tokio::sync::broadcast;

use crate::{Appended, Error, PoolSettings};
pub(crate) use dialect::DIALECT;
use listener::ListenerTask;
use notifier::Notifier;

static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("../../migrations/postgres");

/// Applies every migration on one connection: the test databases'
/// template (`crate::testing`).
#[cfg(feature = "testing")]
pub(crate) async fn migrate(conn: &mut sqlx::PgConnection) -> Result<(), Error> {
    Ok(MIGRATOR.run(conn).await?)
}

/// A digest of every migration's version and checksum: it names the test
/// databases' template, so a changed migration makes a new one.
#[cfg(feature = "testing")]
pub(crate) fn migrations_digest() -> String {
    use sha2::{Digest, Sha256};
    let mut digest = Sha256::new();
    for migration in MIGRATOR.iter() {
        digest.update(migration.version.to_le_bytes());
        digest.update(&migration.checksum);
    }
    hex::encode(&digest.finalize()[..8])
}

/// Whether every migration is applied, unchanged: then a service's role
/// needs no right to change the schema (docs/operations.md, "Database
/// roles"): the owner's `skit-game --migrate` ran first. Any other state
/// (no migrations table, one missing, a changed checksum) is left to
/// sqlx's migrator, which applies or refuses.
async fn up_to_date(pool: &PgPool) -> Result<bool, Error> {
    let applied: Vec<(i64, Vec<u8>)> =
        match sqlx::query_as("SELECT version, checksum FROM _sqlx_migrations WHERE success")
            .fetch_all(pool)
            .await
        {
            Ok(rows) => rows,
            // No migrations table yet: a new database.
            Err(sqlx::Error::Database(e)) if e.code().as_deref() == Some("42P01") => {
                return Ok(false);
            }
            Err(e) => return Err(e.into()),
        };
    let applied: std::collections::HashMap<i64, Vec<u8>> = applied.into_iter().collect();
    Ok(MIGRATOR
        .iter()
        .filter(|m| m.migration_type.is_up_migration())
        .all(|m| {
            applied
                .get(&m.version)
                .is_some_and(|c| c.as_slice() == &*m.checksum)
        }))
}

/// A migration refused for want of privilege (SQLSTATE 42501) is
/// [`Error::Unavailable`]: a service connected as a role that may not
/// change the schema (docs/operations.md, "Database roles") waits, as for
/// a database not up yet, for the owner's `skit-game --migrate` to bring
/// the schema up to date.
fn may_not_migrate(e: sqlx::migrate::MigrateError) -> Error {
    use sqlx::migrate::MigrateError::{Execute, ExecuteMigration};
    match e {
        Execute(sqlx::Error::Database(d)) | ExecuteMigration(sqlx::Error::Database(d), _)
            if d.code().as_deref() == Some("42501") =>
        {
            tracing::warn!(error = %d, "the schema is behind and this role may not migrate it: waiting for `skit-game --migrate` as the owner");
            Error::Unavailable(sqlx::Error::Database(d))
        }
        e => e.into(),
    }
}

/// Notices are short statements; a few connections carry them all.
const NOTIFY_CONNECTIONS: u32 = 4;

/// Every prepared statement runs its generic plan from the first call.
/// By default Postgres plans a statement afresh on each call while that
/// looks cheaper than the generic plan, and for a statement over
/// `unnest`ed arrays (the guarded append) it always does: a custom plan
/// knows the arrays' lengths. Planning was about a third of Postgres' CPU
/// when each move commits alone. Our statements are key look-ups, and the
/// generic plans of the hot ones are tested never to scan a table
/// (`plans.rs`), so the plan that is tested is the plan that runs.
const PLAN_CACHE_MODE: (&str, &str) = ("plan_cache_mode", "force_generic_plan");

#[derive(Debug, Clone)]
pub(crate) struct Backend {
    pub(crate) pool: PgPool,
    /// For append notices only: `synchronous_commit` off, as a notice is a
    /// hint that needs no disk flush (see `listener`).
    notify_pool: PgPool,
    /// Sends append notices on `notify_pool`, merged under load.
    notifier: Notifier,
    appended: broadcast::Sender<Appended>,
    /// Forwards notifications into `appended`; stopped with the last clone.
    _listener: Arc<ListenerTask>,
    /// Publishes the pools' use; stopped with the last clone.
    _gauges: Arc<pool_gauges::PoolGauges>,
}

impl Backend {
    /// Connects with a pool as `settings` says for queries and appends,
    /// migrates (under sqlx's advisory lock, so instances starting together
    /// are safe) and starts listening before returning, so no append made
    /// after `connect` returns is missed.
    pub(crate) async fn connect(url: &str, settings: PoolSettings) -> Result<Self, Error> {
        let base = PgConnectOptions::from_str(url)?;
        // A server configured with synchronous_commit off could lose
        // acknowledged moves on a crash; insist on it for our sessions.
        let options = base
            .clone()
            .options([("synchronous_commit", "on"), PLAN_CACHE_MODE]);
        let pool = PgPoolOptions::new()
            .max_connections(settings.max_connections)
            .acquire_timeout(settings.acquire_timeout)
            .connect_with(options)
            .await?;
        let notify_pool = PgPoolOptions::new()
            .max_connections(NOTIFY_CONNECTIONS)
            .acquire_timeout(settings.acquire_timeout)
            .connect_lazy_with(base.options([("synchronous_commit", "off")]));
        if !up_to_date(&pool).await? {
            MIGRATOR.run(&pool).await.map_err(may_not_migrate)?;
        }
        let (appended, _) = broadcast::channel(crate::NOTICE_BUFFER);
        let listener = listener::start(&pool, appended.clone()).await?;
        let gauges =
            pool_gauges::start([("queries", pool.clone()), ("notices", notify_pool.clone())]);
        Ok(Self {
            pool,
            notifier: Notifier::start(notify_pool.clone()),
            notify_pool,
            appended,
            _listener: Arc::new(listener),
            _gauges: Arc::new(gauges),
        })
    }

    pub(crate) async fn close(&self) {
        self.notify_pool.close().await;
        self.pool.close().await;
    }

    pub(crate) fn subscribe(&self) -> broadcast::Receiver<Appended> {
        self.appended.subscribe()
    }

    /// Tells every instance (this one too) which games grew, after the
    /// commit, without holding up the answers: a notice is only a hint,
    /// and a lost one costs listeners nothing but a re-read on their next
    /// look.
    pub(crate) fn notify(&self, notices: Vec<Appended>) {
        self.notifier.send(notices);
    }

    /// Half the pool, so reads always find a connection.
    pub(crate) fn solo_writers(&self) -> usize {
        let pooled = self.pool.options().get_max_connections();
        usize::try_from(pooled / 2).unwrap_or(1).max(1)
    }

    /// One per four cores (each keeps a connection and a core busy
    /// writing batches), at most half the pool.
    pub(crate) fn group_committers(&self) -> usize {
        (crate::pool::cores() / 4).clamp(1, self.solo_writers())
    }
}

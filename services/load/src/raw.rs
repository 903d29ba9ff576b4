//! The database's own limit: N tasks each looping single-row INSERTs, each
//! its own durable commit, into a scratch table shaped like the event log
//! (its columns and both its keys). Each task keeps one connection, so the
//! loop pays nothing but the inserts.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use anyhow::Context;
use sqlx::pool::PoolConnection;

use crate::cpu::{self, ServiceCpu};

const TABLE: &str = "skit_load_raw";

/// Rows written, the time taken, and the CPU used meanwhile.
#[derive(Debug, Clone, Copy)]
pub struct Raw {
    pub rows: u64,
    pub elapsed: Duration,
    pub errors: u64,
    /// Tasks (each with its connection) that ran: the concurrency asked
    /// for, or fewer where the database server takes no more connections.
    pub connections: usize,
    /// Over the loop once every connection is open (Postgres' backends
    /// exist only while the pool does, so they are read in between).
    pub cpu: cpu::Use,
}

impl Raw {
    pub fn rows_per_second(&self) -> f64 {
        self.rows as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// One backend's pool; each insert is its own autocommit transaction.
#[derive(Clone)]
enum Pool {
    Postgres(sqlx::PgPool),
    Sqlite(sqlx::SqlitePool),
}

impl Pool {
    async fn open(database_url: &str, concurrency: u32) -> anyhow::Result<Pool> {
        Ok(if database_url.starts_with("postgres") {
            let options: sqlx::postgres::PgConnectOptions = database_url.parse()?;
            let options = options.options([("synchronous_commit", "on")]);
            Pool::Postgres(
                sqlx::postgres::PgPoolOptions::new()
                    .max_connections(concurrency)
                    .acquire_timeout(Duration::from_secs(5))
                    .connect_with(options)
                    .await?,
            )
        } else {
            // The service's own durability: WAL, synced on every commit.
            let options: sqlx::sqlite::SqliteConnectOptions = database_url.parse()?;
            let options = options
                .journal_mode(sqlx::sqlite::SqliteJournalMode::Wal)
                .synchronous(sqlx::sqlite::SqliteSynchronous::Full)
                .busy_timeout(Duration::from_secs(30));
            Pool::Sqlite(
                sqlx::sqlite::SqlitePoolOptions::new()
                    .max_connections(concurrency)
                    .connect_with(options)
                    .await?,
            )
        })
    }

    async fn execute(&self, sql: &str) -> Result<(), sqlx::Error> {
        match self {
            Pool::Postgres(p) => sqlx::query(sqlx::AssertSqlSafe(sql.to_owned()))
                .execute(p)
                .await
                .map(drop),
            Pool::Sqlite(p) => sqlx::query(sqlx::AssertSqlSafe(sql.to_owned()))
                .execute(p)
                .await
                .map(drop),
        }
    }

    /// A connection of the pool for one task to keep: taking one from the
    /// pool and giving it back would cost two round trips (sqlx pings it)
    /// besides the insert's own.
    async fn acquire(&self) -> Result<Connection, sqlx::Error> {
        Ok(match self {
            Pool::Postgres(p) => Connection::Postgres(p.acquire().await?),
            Pool::Sqlite(p) => Connection::Sqlite(p.acquire().await?),
        })
    }

    async fn close(&self) {
        match self {
            Pool::Postgres(p) => p.close().await,
            Pool::Sqlite(p) => p.close().await,
        }
    }
}

enum Connection {
    Postgres(PoolConnection<sqlx::Postgres>),
    Sqlite(PoolConnection<sqlx::Sqlite>),
}

impl Connection {
    async fn insert(&mut self, game: &str, seq: i64) -> Result<(), sqlx::Error> {
        let payload = serde_json::json!({"action": {"move": {"seat": 1, "play": ["7S"]}}});
        let move_id = format!("m{seq}");
        match self {
            Connection::Postgres(c) => sqlx::query(
                "INSERT INTO skit_load_raw (game_id, seq, kind, payload, move_id, created_at) \
                 VALUES ($1, $2, 'move', $3, $4, now())",
            )
            .bind(game)
            .bind(seq)
            .bind(sqlx::types::Json(payload))
            .bind(move_id)
            .execute(&mut **c)
            .await
            .map(drop),
            Connection::Sqlite(c) => sqlx::query(
                "INSERT INTO skit_load_raw (game_id, seq, kind, payload, move_id, created_at) \
                 VALUES ($1, $2, 'move', $3, $4, datetime('now'))",
            )
            .bind(game)
            .bind(seq)
            .bind(payload.to_string())
            .bind(move_id)
            .execute(&mut **c)
            .await
            .map(drop),
        }
    }
}

/// Connections the tool leaves free on a Postgres server: for the
/// service's notices and listener, the tool's probes, and whoever else
/// shares the server.
pub const SPARE_CONNECTIONS: usize = 20;

/// How many more connections a Postgres server takes (its
/// `max_connections` less those open and those kept for superusers), so
/// the tool asks for no more than it can have; `None` for SQLite or when
/// it cannot be asked.
pub async fn postgres_room(database_url: &str) -> Option<usize> {
    if !database_url.starts_with("postgres") {
        return None;
    }
    let pool = sqlx::postgres::PgPoolOptions::new()
        .max_connections(1)
        .connect(database_url)
        .await
        .ok()?;
    let room: Option<i64> = sqlx::query_scalar(
        "SELECT (current_setting('max_connections')::int \
         - current_setting('superuser_reserved_connections')::int \
         - (SELECT count(*) FROM pg_stat_activity)::int)::bigint",
    )
    .fetch_one(&pool)
    .await
    .ok();
    pool.close().await;
    // Its own connection is gone again.
    room.map(|r| usize::try_from(r + 1).unwrap_or(0))
}

pub async fn run(database_url: &str, concurrency: usize, seconds: f64) -> anyhow::Result<Raw> {
    let room = postgres_room(database_url)
        .await
        .map(|r| r.saturating_sub(SPARE_CONNECTIONS));
    let concurrency = room.map_or(concurrency, |r| concurrency.min(r)).max(1);
    let pool = Pool::open(database_url, concurrency as u32)
        .await
        .context("cannot open the database for the raw measurement")?;
    let (json, time) = match pool {
        Pool::Postgres(_) => ("JSONB", "TIMESTAMPTZ"),
        Pool::Sqlite(_) => ("TEXT", "TEXT"),
    };
    pool.execute(&format!("DROP TABLE IF EXISTS {TABLE}"))
        .await?;
    pool.execute(&format!(
        "CREATE TABLE {TABLE} (game_id TEXT NOT NULL, seq BIGINT NOT NULL, kind TEXT NOT NULL, \
         payload {json} NOT NULL, move_id TEXT, created_at {time} NOT NULL, \
         PRIMARY KEY (game_id, seq), UNIQUE (game_id, move_id))"
    ))
    .await?;
    let stop = Arc::new(AtomicBool::new(false));
    let (rows, errors) = (Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)));
    let started = Instant::now();
    let mut tasks = tokio::task::JoinSet::new();
    for w in 0..concurrency {
        let (pool, stop, rows, errors) = (pool.clone(), stop.clone(), rows.clone(), errors.clone());
        tasks.spawn(async move {
            let game = format!("{w:032x}");
            let mut seq = 0i64;
            let mut connection = None;
            while !stop.load(Ordering::Relaxed) {
                seq += 1;
                if connection.is_none() {
                    connection = pool.acquire().await.ok();
                }
                let Some(c) = connection.as_mut() else {
                    errors.fetch_add(1, Ordering::Relaxed);
                    continue;
                };
                match c.insert(&game, seq).await {
                    Ok(()) => rows.fetch_add(1, Ordering::Relaxed),
                    Err(_) => {
                        connection = None;
                        errors.fetch_add(1, Ordering::Relaxed)
                    }
                };
            }
        });
    }
    let warm_up = Duration::from_secs_f64(seconds / 10.0).min(Duration::from_millis(500));
    tokio::time::sleep(warm_up).await;
    let pids = cpu::postgres_pids(database_url).await;
    let before = cpu::sample(ServiceCpu::Unknown, &pids);
    tokio::time::sleep(Duration::from_secs_f64(seconds).saturating_sub(warm_up)).await;
    let after = cpu::sample(ServiceCpu::Unknown, &pids);
    stop.store(true, Ordering::Relaxed);
    // Counted up to the set time: inserts still waiting for SQLite's one
    // writer when it passes finish afterwards, outside the measure.
    let (counted, elapsed) = (rows.load(Ordering::Relaxed), started.elapsed());
    tasks.join_all().await;
    pool.execute(&format!("DROP TABLE IF EXISTS {TABLE}"))
        .await?;
    pool.close().await;
    Ok(Raw {
        rows: counted,
        elapsed,
        errors: errors.load(Ordering::Relaxed),
        connections: concurrency,
        cpu: cpu::between(&before, &after, ServiceCpu::Unknown),
    })
}

#[cfg(test)]
mod tests {
    use skit_store::testing::TestDb;

    use super::*;

    #[tokio::test]
    async fn a_postgres_server_says_how_many_more_connections_it_takes() {
        let db = TestDb::postgres().await;

        let room = postgres_room(db.url()).await;

        // Under its max_connections, which is at least a few.
        let room = room.expect("a PostgreSQL server answers how much room it has");
        assert!((1..100_000).contains(&room), "{room}");
        assert_eq!(postgres_room("sqlite://x.db").await, None);
    }
}

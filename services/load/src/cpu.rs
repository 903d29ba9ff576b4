//! CPU time of the three parties sharing the machine: this tool (the
//! process's own time, as getrusage(RUSAGE_SELF) gives it, minus the
//! spawned service's threads), the service (its named threads
//! here, or its process by id) and Postgres (the backends on our database
//! plus the WAL writer, checkpointer and background writer), read from
//! `/proc/<pid>/stat` (utime + stime).

use std::time::{Duration, Instant};

/// Thread name prefix of a spawned service's runtime.
pub const SERVICE_THREADS: &str = "skit-svc";

/// Clock ticks per second of `/proc` times (Linux: always 100 in practice).
const TICKS: f64 = 100.0;

/// CPU seconds of each party at one moment.
#[derive(Debug, Clone, Default)]
pub struct Sample {
    at: Option<Instant>,
    process: f64,
    service: f64,
    postgres: Vec<(u32, f64)>,
}

/// What to read: a spawned service's threads, or a service process.
#[derive(Debug, Clone, Copy)]
pub enum ServiceCpu {
    Threads,
    Process(u32),
    Unknown,
}

pub fn sample(service: ServiceCpu, postgres_pids: &[u32]) -> Sample {
    let process = stat_seconds("/proc/self/stat").unwrap_or(0.0);
    let service = match service {
        ServiceCpu::Threads => service_threads(),
        ServiceCpu::Process(pid) => stat_seconds(&format!("/proc/{pid}/stat")).unwrap_or(0.0),
        ServiceCpu::Unknown => 0.0,
    };
    let postgres = postgres_pids
        .iter()
        .filter_map(|&pid| Some((pid, stat_seconds(&format!("/proc/{pid}/stat"))?)))
        .collect();
    Sample {
        at: Some(Instant::now()),
        process,
        service,
        postgres,
    }
}

/// Per party, the share of one core used between two samples.
#[derive(Debug, Clone, Copy)]
pub struct Use {
    pub tool: f64,
    pub service: f64,
    /// `None` when no Postgres was measured (SQLite).
    pub postgres: Option<f64>,
}

pub fn between(before: &Sample, after: &Sample, service: ServiceCpu) -> Use {
    let wall = match (before.at, after.at) {
        (Some(a), Some(b)) => b.duration_since(a),
        _ => Duration::ZERO,
    }
    .as_secs_f64()
    .max(1e-9);
    let service_used = after.service - before.service;
    let process_used = after.process - before.process;
    let tool = match service {
        ServiceCpu::Threads => process_used - service_used,
        _ => process_used,
    };
    // Backends that started during the interval count from zero.
    let postgres: f64 = after
        .postgres
        .iter()
        .map(|(pid, t)| {
            let start = before
                .postgres
                .iter()
                .find(|(p, _)| p == pid)
                .map_or(0.0, |(_, s)| *s);
            t - start
        })
        .sum();
    Use {
        tool: tool / wall,
        service: service_used / wall,
        postgres: (!after.postgres.is_empty()).then_some(postgres / wall),
    }
}

/// utime + stime of one `/proc/.../stat` file, in seconds.
fn stat_seconds(path: &str) -> Option<f64> {
    let text = std::fs::read_to_string(path).ok()?;
    // The command name (field 2) may hold spaces; fields count from after it.
    let rest = &text[text.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // utime and stime are fields 14 and 15, i.e. 12 and 13 after the name.
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    Some((utime + stime) / TICKS)
}

/// The spawned service's threads: its runtime and SQLite's workers.
fn service_threads() -> f64 {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return 0.0;
    };
    tasks
        .flatten()
        .filter_map(|task| {
            let dir = task.path();
            let name = std::fs::read_to_string(dir.join("comm")).ok()?;
            let ours = name.starts_with(SERVICE_THREADS) || name.starts_with("sqlx-sqlite");
            ours.then(|| stat_seconds(&dir.join("stat").to_string_lossy()))
                .flatten()
        })
        .sum()
}

/// The Postgres processes working for `database_url`'s database: its
/// backends, and the shared WAL writer, checkpointer and background writer.
pub async fn postgres_pids(database_url: &str) -> Vec<u32> {
    if !database_url.starts_with("postgres") {
        return Vec::new();
    }
    let Ok(pool) = sqlx::PgPool::connect(database_url).await else {
        return Vec::new();
    };
    let pids: Vec<i32> = sqlx::query_scalar(
        "SELECT pid FROM pg_stat_activity WHERE datname = current_database() \
         OR backend_type IN ('walwriter', 'checkpointer', 'background writer')",
    )
    .fetch_all(&pool)
    .await
    .unwrap_or_default();
    pool.close().await;
    pids.into_iter()
        .filter_map(|p| u32::try_from(p).ok())
        .collect()
}

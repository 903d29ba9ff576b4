//! `skit-game --migrate`, the step a deployment runs before instances of a
//! new version start: it applies every migration to an empty database and
//! exits without serving, and running it again changes nothing.

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use skit_testkit::TestDb;

// Not `on_both_databases!`: its PostgreSQL databases come migrated.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_migrate_applies_every_migration_and_exits() {
    migrate_applies_every_migration_and_exits(&TestDb::sqlite()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_migrate_applies_every_migration_and_exits() {
    migrate_applies_every_migration_and_exits(&TestDb::postgres_empty().await).await;
}

/// Runs `skit-game --migrate` on `db`; it must exit, successfully, by itself.
async fn migrate(db: &TestDb) {
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_skit-game"))
        .arg("--migrate")
        .env("DATABASE_URL", db.url())
        .env("RUST_LOG", "error")
        .stdout(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("start skit-game --migrate");
    let status = tokio::time::timeout(Duration::from_secs(60), child.wait())
        .await
        .expect("skit-game --migrate exits without serving")
        .expect("wait for skit-game");
    assert!(status.success(), "skit-game --migrate failed: {status}");
}

/// The migrations recorded as applied, by version.
async fn applied(db: &TestDb) -> Vec<i64> {
    let query = "SELECT version FROM _sqlx_migrations WHERE success ORDER BY version";
    match db.sqlite_path() {
        Some(path) => {
            let pool = sqlx::SqlitePool::connect(&format!("sqlite://{}", path.display()))
                .await
                .expect("open the SQLite file");
            sqlx::query_scalar(query)
                .fetch_all(&pool)
                .await
                .expect("read the migrations")
        }
        None => {
            let pool = sqlx::PgPool::connect(db.url()).await.expect("connect");
            sqlx::query_scalar(query)
                .fetch_all(&pool)
                .await
                .expect("read the migrations")
        }
    }
}

/// The migrations in the repository for `db`'s backend, by version.
fn shipped(db: &TestDb) -> Vec<i64> {
    let backend = if db.sqlite_path().is_some() {
        "sqlite"
    } else {
        "postgres"
    };
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../migrations")
        .join(backend);
    let mut versions: Vec<i64> = std::fs::read_dir(dir)
        .expect("list the migrations")
        .map(|entry| {
            let name = entry.expect("a migration").file_name();
            let name = name.to_string_lossy();
            let (version, _) = name.split_once('_').expect("VERSION_name.sql");
            version.parse().expect("a numeric version")
        })
        .collect();
    versions.sort_unstable();
    versions
}

async fn migrate_applies_every_migration_and_exits(db: &TestDb) {
    migrate(db).await;
    let wanted = shipped(db);
    assert!(!wanted.is_empty());
    assert_eq!(applied(db).await, wanted);
    // Before every rollout: a database already up to date stays as it is.
    migrate(db).await;
    assert_eq!(applied(db).await, wanted);
}

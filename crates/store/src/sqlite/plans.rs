//! The indexes SQLite reads an account's games through.
#![allow(clippy::unwrap_used)]

use sqlx::{AssertSqlSafe, Connection, SqliteConnection};

use super::dialect::{GAMES_FOR_ACCOUNT, RUNNING_GAMES_FOR_ACCOUNT};
use crate::testing::TestDb;
use crate::turns::PAGE_MAY_ACT;

async fn query_plan(conn: &mut SqliteConnection, sql: &str) -> String {
    let rows: Vec<(i64, i64, i64, String)> =
        sqlx::query_as(AssertSqlSafe(format!("EXPLAIN QUERY PLAN {sql}")))
            .bind(1_i64)
            .bind(100_i64)
            .fetch_all(&mut *conn)
            .await
            .unwrap();
    rows.into_iter()
        .map(|(_, _, _, detail)| detail)
        .collect::<Vec<_>>()
        .join("\n")
}

/// As on Postgres (`postgres/plans.rs`): running games come from
/// `seats_running`, the newest games from `seats_newest`, never from every
/// seat the account ever held.
#[tokio::test]
async fn listing_reads_the_seat_indexes() {
    let db = TestDb::sqlite();
    db.connect().await.unwrap();
    let mut conn = SqliteConnection::connect(db.url()).await.unwrap();
    let running = query_plan(&mut conn, RUNNING_GAMES_FOR_ACCOUNT).await;
    assert!(running.contains("seats_running"), "{running}");
    let newest = query_plan(&mut conn, GAMES_FOR_ACCOUNT).await;
    assert!(newest.contains("seats_newest"), "{newest}");
    // The turn index, a page at a time.
    let rows: Vec<(i64, i64, i64, String)> =
        sqlx::query_as(AssertSqlSafe(format!("EXPLAIN QUERY PLAN {PAGE_MAY_ACT}")))
            .bind(1_i64)
            .bind("2100-01-01")
            .bind("")
            .bind(100_i64)
            .fetch_all(&mut conn)
            .await
            .unwrap();
    let turns: Vec<String> = rows.into_iter().map(|(_, _, _, detail)| detail).collect();
    assert!(
        turns.iter().any(|d| d.contains("seats_to_act")),
        "{turns:?}"
    );
}

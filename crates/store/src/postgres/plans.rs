//! The plans Postgres keeps for the hot statements. A connection's
//! prepared statement is planned afresh for its first calls, then kept as
//! one generic plan, made with the statistics of that moment, until the
//! table is next analyzed; on a young database those say "almost empty",
//! where a join over a whole table looks cheap.
#![allow(clippy::unwrap_used)]

use sqlx::{AssertSqlSafe, Connection, PgConnection};

use super::dialect::{GAMES_FOR_ACCOUNT_BY_KEY, RUNNING_GAMES_FOR_ACCOUNT_BY_KEY};
use crate::batch::postgres::{EVENTS_BY_MOVE_IDS, INSERT_GUARDED, LAST_SEQS};
use crate::sql::LOAD_EVENTS;
use crate::turns::{PAGE_ALL, PAGE_MAY_ACT, PAGE_RUNNING};

/// The statement the turn index's trigger runs for each game of an insert
/// (migrations/postgres/0019_turns.sql), its variables as parameters.
const TURN_OF_A_GAME: &str = "UPDATE seats SET to_act = (($2::bigint >> seat) & 1) = 1 \
     WHERE game_id = $1 AND to_act IS DISTINCT FROM ((($2::bigint >> seat) & 1) = 1)";
use crate::testing::TestDb;

/// The plan Postgres keeps for `sql` once it stops planning each call
/// anew, made (as on a new service's connections) while the event log
/// is young: empty, never analyzed.
async fn generic_plan(conn: &mut PgConnection, sql: &str, arguments: &str) -> String {
    sqlx::query("SET plan_cache_mode = force_generic_plan")
        .execute(&mut *conn)
        .await
        .unwrap();
    sqlx::query(AssertSqlSafe(format!("PREPARE s AS {sql}")))
        .execute(&mut *conn)
        .await
        .unwrap();
    let explain = format!("EXPLAIN EXECUTE s({arguments})");
    let lines: Vec<String> = sqlx::query_scalar(AssertSqlSafe(explain))
        .fetch_all(&mut *conn)
        .await
        .unwrap();
    sqlx::query("DEALLOCATE s")
        .execute(&mut *conn)
        .await
        .unwrap();
    lines.join("\n")
}

/// Every statement of a round, and the reads of a player's games, find
/// rows through their keys, so they cost the same on a log of a billion
/// events as on an empty one, whatever the statistics were when the
/// plan was made. (The guard written as `EXISTS` failed this: a hash
/// join over every event.)
#[tokio::test]
async fn hot_statements_never_scan_a_table() {
    let db = TestDb::postgres().await;
    db.connect().await.unwrap();
    let mut conn = PgConnection::connect(db.url()).await.unwrap();
    let statements = [
        (
            INSERT_GUARDED,
            "'{g}', '{1}', '{k}', '{\"{}\"}', '{m}', '{0}', '{1}', now()",
        ),
        (TURN_OF_A_GAME, "'g', 1"),
        (PAGE_ALL, "1, now(), 'g', 100"),
        (PAGE_RUNNING, "1, now(), 'g', 100"),
        (PAGE_MAY_ACT, "1, now(), 'g', 100"),
        (LAST_SEQS, "'{g}'"),
        (EVENTS_BY_MOVE_IDS, "'{g}', '{m}'"),
        (GAMES_FOR_ACCOUNT_BY_KEY, "1, 100"),
        (RUNNING_GAMES_FOR_ACCOUNT_BY_KEY, "1, 100"),
        (LOAD_EVENTS, "'g', 0"),
    ];
    for (sql, arguments) in statements {
        let plan = generic_plan(&mut conn, sql, arguments).await;
        assert!(!plan.contains("Seq Scan"), "{sql}\nscans a table:\n{plan}");
    }
}

/// An account's running games are read from the seats of games not over
/// (`seats_running`), its newest games from the newest seats
/// (`seats_newest`): neither reads every seat the account ever held, so a
/// bot's ListGames poll costs the same after a million finished games.
#[tokio::test]
async fn listing_reads_the_seat_indexes() {
    let db = TestDb::postgres().await;
    db.connect().await.unwrap();
    let mut conn = PgConnection::connect(db.url()).await.unwrap();
    let running = generic_plan(&mut conn, RUNNING_GAMES_FOR_ACCOUNT_BY_KEY, "1, 100").await;
    assert!(running.contains("seats_running"), "{running}");
    let newest = generic_plan(&mut conn, GAMES_FOR_ACCOUNT_BY_KEY, "1, 100").await;
    assert!(newest.contains("seats_newest"), "{newest}");
    let turns = generic_plan(&mut conn, PAGE_MAY_ACT, "1, now(), 'g', 100").await;
    assert!(turns.contains("seats_to_act"), "{turns}");
}

/// Creating and joining a game read and write its seats through the
/// seats' key (game, seat), never through an index that starts with the
/// account: such a plan (the account-first `seats_newest` with the game as
/// a later column, as a generic plan made on a young table chose for "the
/// seat of account a in game g") reads every seat the account ever held,
/// so each join cost more as games accumulated. A plan that avoids a
/// sequential scan is not enough: the statement's key must lead.
#[tokio::test]
async fn joining_reads_a_games_seats_by_their_key() {
    let db = TestDb::postgres().await;
    db.connect().await.unwrap();
    let mut conn = PgConnection::connect(db.url()).await.unwrap();
    let statements = [
        (crate::sql::SEATS_OF_GAME, "'g'"),
        (crate::sql::TAKE_SEAT, "'g', 1, 0"),
    ];
    for (sql, arguments) in statements {
        let plan = generic_plan(&mut conn, sql, arguments).await;
        assert!(
            plan.contains("seats_pkey"),
            "{sql}\nnot by the seats' key:\n{plan}"
        );
        for index in [
            "seats_newest",
            "seats_running",
            "seats_to_act",
            "seats_by_account",
        ] {
            assert!(!plan.contains(index), "{sql}\nreads {index}:\n{plan}");
        }
    }
}

//! The matchmaker's gRPC health service and `/readyz` follow its tickets'
//! database: NOT_SERVING (503) while it refuses connections, SERVING again
//! when it is back; `/livez` stays 200.

use skit_gateway::health_probe::{health_of, http_status_of, wait_for_health};
use skit_testkit::{TestDb, spawn_game, spawn_matchmaker_with};
use tonic_health::pb::health_check_response::ServingStatus;

const NAMES: [&str; 2] = ["", "skitgubbe.v1.MatchmakingService"];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_follows_the_tickets_database() {
    let (game_db, mm_db) = (TestDb::sqlite(), TestDb::postgres().await);
    let game = spawn_game(&game_db).await;
    let mm = spawn_matchmaker_with(&mm_db, &game, |c| c.health_check_ms = 50).await;
    let url = mm.url();
    assert_eq!(health_of(&url, &NAMES).await, [ServingStatus::Serving; 2]);

    mm_db.accept_connections(false).await;
    wait_for_health(&url, &NAMES, ServingStatus::NotServing).await;
    assert_eq!(
        http_status_of(&url, "/livez").await,
        200,
        "alive without a database"
    );
    mm_db.accept_connections(true).await;
    wait_for_health(&url, &NAMES, ServingStatus::Serving).await;
    mm.stop().await;
    game.stop().await;
}

//! The gRPC health service and `/readyz` follow the database: SERVING
//! (200) while it answers, NOT_SERVING (503) for the server and every
//! service once it stops taking connections, SERVING again when it is
//! back; `/livez` stays 200 throughout.

use std::time::Duration;

use skit_gateway::health_probe::{health_of, http_status_of, wait_for_health};
use skit_proto::v1::CreateGuestRequest;
use skit_testkit::TestDb;
use skit_testkit::spawn_game_with;
use tonic_health::pb::health_check_response::ServingStatus;

const NAMES: [&str; 4] = [
    "",
    "skitgubbe.v1.GameService",
    "skitgubbe.v1.AccountService",
    "skitgubbe.v1.RatingService",
];

fn guest(name: &str) -> CreateGuestRequest {
    CreateGuestRequest {
        name: Some(name.into()),
        request_id: String::new(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_follows_the_database() {
    let db = TestDb::postgres().await;
    let app = spawn_game_with(&db, |c| c.health_check_ms = 50).await;
    let url = format!("http://{}", app.addr);
    assert_eq!(health_of(&url, &NAMES).await, [ServingStatus::Serving; 4]);

    db.accept_connections(false).await;
    wait_for_health(&url, &NAMES, ServingStatus::NotServing).await;
    assert_eq!(
        http_status_of(&url, "/livez").await,
        200,
        "alive without a database"
    );
    // The service still answers: a call that needs the database is
    // refused, not left hanging.
    let during = tokio::time::timeout(
        Duration::from_secs(30),
        app.accounts()
            .await
            .create_guest(guest("during-the-outage")),
    )
    .await
    .expect("CreateGuest answered during the outage");
    assert!(during.is_err(), "CreateGuest succeeded without a database");

    db.accept_connections(true).await;
    wait_for_health(&url, &NAMES, ServingStatus::Serving).await;
    let after = app
        .accounts()
        .await
        .create_guest(guest("after-the-outage"))
        .await;
    assert!(after.is_ok(), "CreateGuest after the outage: {after:?}");
    app.stop().await;
}

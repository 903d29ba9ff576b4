//! The gRPC health service follows the database: SERVING while it answers,
//! NOT_SERVING for the server and every service once it stops taking
//! connections, SERVING again when it is back.

mod support;

use std::time::Duration;

use skit_store::testing::TestDb;
use support::spawn_app_with;
use tonic::transport::Channel;
use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;

const NAMES: [&str; 4] = [
    "",
    "skitgubbe.v1.GameService",
    "skitgubbe.v1.AccountService",
    "skitgubbe.v1.RatingService",
];

async fn status(client: &mut HealthClient<Channel>, name: &str) -> ServingStatus {
    let request = HealthCheckRequest {
        service: name.to_owned(),
    };
    let response = client.check(request).await.expect("health check");
    response.into_inner().status()
}

/// Polls until every name reports `want`; fails after 20 s, saying which
/// name reported what.
async fn wait_for(client: &mut HealthClient<Channel>, want: ServingStatus) {
    let mut last = Vec::new();
    for _ in 0..1000 {
        last.clear();
        for name in NAMES {
            last.push((name, status(client, name).await));
        }
        if last.iter().all(|&(_, s)| s == want) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("health never reported {want:?} for every name; last: {last:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_follows_the_database() {
    let db = TestDb::postgres().await;
    let app = spawn_app_with(db.url(), |c| c.health_check_ms = 50).await;
    let mut client = loop {
        let endpoint = Channel::from_shared(format!("http://{}", app.addr)).expect("url");
        if let Ok(channel) = endpoint.connect().await {
            break HealthClient::new(channel);
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    for name in NAMES {
        assert_eq!(
            status(&mut client, name).await,
            ServingStatus::Serving,
            "{name:?} at start"
        );
    }

    db.accept_connections(false).await;
    wait_for(&mut client, ServingStatus::NotServing).await;
    // The service itself still answers: a game-service call is refused by
    // the database, not left hanging.
    let guest = tokio::time::timeout(
        Duration::from_secs(30),
        app.accounts()
            .await
            .create_guest(skit_proto::v1::CreateGuestRequest {
                name: Some("during-the-outage".into()),
            }),
    )
    .await
    .expect("CreateGuest answered during the outage");
    assert!(guest.is_err(), "CreateGuest succeeded without a database");

    db.accept_connections(true).await;
    wait_for(&mut client, ServingStatus::Serving).await;
    let guest = app
        .accounts()
        .await
        .create_guest(skit_proto::v1::CreateGuestRequest {
            name: Some("after-the-outage".into()),
        })
        .await;
    assert!(guest.is_ok(), "CreateGuest after the outage: {guest:?}");

    drop(client);
    app.stop().await;
}

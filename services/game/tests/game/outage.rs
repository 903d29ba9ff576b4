//! When the database stops answering, a request that needs it fails fast
//! with UNAVAILABLE (HTTP 503) and a retry hint, showing nothing of the
//! database's own text, and the service serves again once it is back.

use std::time::{Duration, Instant};

use serde_json::json;
use skit_proto::v1::CreateGuestRequest;
use skit_testkit::{
    DbProxy, Expected, TestDb, assert_no_internals, assert_retry_hint, served_again,
    spawn_game_with,
};
use tonic::Code;

/// How long a request waits for a database connection here.
const ACQUIRE_TIMEOUT_MS: u64 = 500;

/// Far above the acquire timeout, far below the 70 s request timeout a
/// hanging request would run into.
const ANSWER_WITHIN: Duration = Duration::from_secs(15);

fn guest(name: &str) -> CreateGuestRequest {
    CreateGuestRequest {
        name: Some(name.into()),
        request_id: String::new(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_without_its_database_is_unavailable_with_a_retry_hint() {
    let db = TestDb::postgres().await;
    let proxy = DbProxy::start(&db).await;
    let app = spawn_game_with(&db, |c| {
        c.database_url = proxy.url().into();
        c.db_acquire_timeout_ms = ACQUIRE_TIMEOUT_MS;
    })
    .await;
    let mut accounts = app.accounts().await;
    let http = app.http();
    accounts
        .create_guest(guest("before"))
        .await
        .expect("a guest while the database answers");
    let want = Expected::new(Code::Unavailable, "unavailable");

    proxy.cut();
    let started = Instant::now();
    let grpc = tokio::time::timeout(ANSWER_WITHIN, accounts.create_guest(guest("during")))
        .await
        .expect("CreateGuest answered during the outage")
        .expect_err("CreateGuest without a database");
    let rest = tokio::time::timeout(
        ANSWER_WITHIN,
        http.call_with_headers(
            "POST",
            "/v1/accounts/guest",
            None,
            Some(json!({"name": "during"})),
        ),
    )
    .await
    .expect("POST /v1/accounts/guest answered during the outage");
    let waited = started.elapsed();

    want.grpc(&grpc);
    let (status, headers, body) = rest;
    want.rest(&(status, body.clone()));
    assert_retry_hint(&grpc, &headers, &body);
    assert!(waited < 2 * ANSWER_WITHIN, "two answers took {waited:?}");
    assert_no_internals(&grpc, &body);

    proxy.restore();
    let after = served_again(|| {
        let mut accounts = accounts.clone();
        async move { accounts.create_guest(guest("after")).await }
    })
    .await;
    assert!(after.is_ok(), "CreateGuest after the outage: {after:?}");
    drop((accounts, http));
    app.stop().await;
}

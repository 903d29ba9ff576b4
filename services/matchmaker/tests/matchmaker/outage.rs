//! When the tickets' database stops answering, a request that needs it
//! fails fast with UNAVAILABLE (HTTP 503) and a retry hint, showing nothing
//! of the database's own text, and the matchmaker serves again once it is
//! back.

use std::time::{Duration, Instant};

use skit_proto::v1::GetTicketRequest;
use skit_testkit::*;
use tonic::Code;

use crate::helpers::enqueue_request;

/// Far above the acquire timeout set here, far below the long poll and
/// request limits a hanging request would run into.
const ANSWER_WITHIN: Duration = Duration::from_secs(15);

fn get_ticket(ticket_id: &str) -> GetTicketRequest {
    GetTicketRequest {
        ticket_id: ticket_id.into(),
        wait_ms: 0,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_without_its_database_is_unavailable_with_a_retry_hint() {
    let (game_db, mm_db) = (TestDb::sqlite(), TestDb::postgres().await);
    let proxy = DbProxy::start(&mm_db).await;
    let game = spawn_game(&game_db).await;
    let mm = spawn_matchmaker_with(&mm_db, &game, |c| {
        c.database_url = proxy.url().into();
        c.db_acquire_timeout_ms = 500;
    })
    .await;
    let mut client = mm.client().await;
    let http = mm.http();
    let (ann, bob) = (game.guest("ann").await, game.guest("bob").await);
    let ticket = mm.enqueue(&ann, enqueue_request("mas", &[2], false)).await;
    let path = format!("/v1/tickets/{}", ticket.ticket_id);
    let want = Expected::new(Code::Unavailable, "unavailable");

    proxy.cut();
    let started = Instant::now();
    let read = client.get_ticket(authed(get_ticket(&ticket.ticket_id), &ann.token));
    let read = tokio::time::timeout(ANSWER_WITHIN, read)
        .await
        .expect("GetTicket answered during the outage")
        .expect_err("GetTicket without a database");
    let enqueue = client.enqueue(authed(enqueue_request("mas", &[2], false), &bob.token));
    let enqueue = tokio::time::timeout(ANSWER_WITHIN, enqueue)
        .await
        .expect("Enqueue answered during the outage")
        .expect_err("Enqueue without a database");
    let rest = http.call_with_headers("GET", &path, Some(&ann.token), None);
    let (status, headers, body) = tokio::time::timeout(ANSWER_WITHIN, rest)
        .await
        .expect("GET /v1/tickets/{id} answered during the outage");
    let waited = started.elapsed();

    for refused in [&read, &enqueue] {
        want.grpc(refused);
        assert_retry_hint(refused, &headers, &body);
    }
    want.rest(&(status, body.clone()));
    assert!(waited < 3 * ANSWER_WITHIN, "three answers took {waited:?}");
    assert_no_internals(&read, &body);

    proxy.restore();
    let after = served_again(|| {
        let mut client = client.clone();
        let request = authed(get_ticket(&ticket.ticket_id), &ann.token);
        async move { client.get_ticket(request).await }
    })
    .await;
    let after = after.expect("GetTicket after the outage").into_inner();
    assert_eq!(after.ticket_id, ticket.ticket_id);
    drop((client, http));
    mm.stop().await;
    game.stop().await;
}

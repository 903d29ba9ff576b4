//! Every class of error the matchmaker answers, over gRPC and over REST on
//! its port: the same code, reason and field at fault as the game service
//! would give, an outage of the game service as UNAVAILABLE with a retry
//! hint, and internal failures showing none of their cause.

use serde_json::json;
use skit_proto::v1::{AccountKind, GetTicketRequest};
use skit_testkit::*;
use tonic::Code;
use tonic_types::StatusExt;

use crate::helpers::enqueue_request;

fn get_ticket(ticket_id: &str) -> GetTicketRequest {
    GetTicketRequest {
        ticket_id: ticket_id.into(),
        wait_ms: 0,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_refusal_has_its_code_reason_and_field() {
    let (game_db, mm_db) = (TestDb::sqlite(), TestDb::sqlite());
    let game = spawn_game(&game_db).await;
    let mm = spawn_matchmaker(&mm_db, &game).await;
    let mut client = mm.client().await;
    let http = mm.http();
    let ann = game.account("ann", AccountKind::Player).await;
    let bob = game.account("bob", AccountKind::Player).await;
    let mas = enqueue_request("mas", &[2], false);
    let mas_json = json!({"rules": {"preset": "mas"}, "playerCounts": [2]});

    // No token, and a token the game service does not know.
    let want = Expected::new(Code::Unauthenticated, "unauthenticated");
    want.grpc(&client.enqueue(mas.clone()).await.expect_err("no token"));
    want.rest(
        &http
            .call("POST", "/v1/tickets", None, Some(mas_json.clone()))
            .await,
    );
    let unknown = client.enqueue(authed(mas.clone(), "skt_nobody")).await;
    want.grpc(&unknown.expect_err("unknown token"));
    let answer = http
        .call(
            "POST",
            "/v1/tickets",
            Some("skt_nobody"),
            Some(mas_json.clone()),
        )
        .await;
    want.rest(&answer);

    // A player count the preset refuses, and an unknown preset.
    let want = Expected::invalid("player_counts[1]");
    let request = authed(enqueue_request("mas", &[2, 5], false), &ann.token);
    want.grpc(&client.enqueue(request).await.expect_err("five"));
    let body = json!({"rules": {"preset": "mas"}, "playerCounts": [2, 5]});
    want.rest(
        &http
            .call("POST", "/v1/tickets", Some(&ann.token), Some(body))
            .await,
    );
    let want = Expected::invalid("rules.preset");
    let request = authed(enqueue_request("nope", &[2], false), &ann.token);
    want.grpc(&client.enqueue(request).await.expect_err("nope"));
    let body = json!({"rules": {"preset": "nope"}});
    want.rest(
        &http
            .call("POST", "/v1/tickets", Some(&ann.token), Some(body))
            .await,
    );

    // Ann queues; a second ticket of hers is refused.
    let ticket = mm.enqueue(&ann, mas.clone()).await;
    let want = Expected::new(Code::FailedPrecondition, "failed_precondition");
    let again = client.enqueue(authed(mas.clone(), &ann.token)).await;
    want.grpc(&again.expect_err("queued twice"));
    let answer = http
        .call("POST", "/v1/tickets", Some(&ann.token), Some(mas_json))
        .await;
    want.rest(&answer);

    // Bob may not see Ann's ticket; nobody sees one that does not exist.
    let want = Expected::new(Code::PermissionDenied, "permission_denied");
    let request = authed(get_ticket(&ticket.ticket_id), &bob.token);
    want.grpc(&client.get_ticket(request).await.expect_err("not his"));
    let path = format!("/v1/tickets/{}", ticket.ticket_id);
    want.rest(&http.call("GET", &path, Some(&bob.token), None).await);
    let want = Expected::new(Code::NotFound, "not_found");
    let missing = "00000000-0000-4000-8000-000000000000";
    let request = authed(get_ticket(missing), &bob.token);
    want.grpc(&client.get_ticket(request).await.expect_err("missing"));
    let path = format!("/v1/tickets/{missing}");
    want.rest(&http.call("GET", &path, Some(&bob.token), None).await);
    let want = Expected::invalid("ticket_id");
    let request = authed(get_ticket("t1"), &bob.token);
    want.grpc(&client.get_ticket(request).await.expect_err("not an id"));
    want.rest(
        &http
            .call("GET", "/v1/tickets/t1", Some(&bob.token), None)
            .await,
    );

    drop((client, http));
    mm.stop().await;
    game.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_the_game_service_callers_are_told_to_retry() {
    let (game_db, mm_db) = (TestDb::sqlite(), TestDb::sqlite());
    let game = spawn_game(&game_db).await;
    // An address nothing listens on, in place of the game service's.
    let closed = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let game_url = format!("http://{}", closed.local_addr().expect("addr"));
    drop(closed);
    let mm = spawn_matchmaker_with(&mm_db, &game, |c| c.game_url = game_url).await;
    let mut client = mm.client().await;
    let http = mm.http();
    let want = Expected::new(Code::Unavailable, "unavailable");

    let grpc = client
        .enqueue(authed(enqueue_request("mas", &[2], false), "skt_someone"))
        .await
        .expect_err("no game service");
    let rest = http
        .call(
            "POST",
            "/v1/tickets",
            Some("skt_someone"),
            Some(json!({"rules": {"preset": "mas"}})),
        )
        .await;

    want.grpc(&grpc);
    let retry = grpc.get_details_retry_info().expect("RetryInfo");
    assert!(retry.retry_delay.is_some_and(|d| !d.is_zero()), "{retry:?}");
    want.rest(&rest);
    assert_eq!(rest.1["retryDelay"], "1s", "{}", rest.1);
    drop((client, http));
    mm.stop().await;
    game.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn internal_failures_hide_their_cause() {
    let (game_db, mm_db) = (TestDb::sqlite(), TestDb::sqlite());
    let game = spawn_game(&game_db).await;
    let mm = spawn_matchmaker(&mm_db, &game).await;
    let mut client = mm.client().await;
    let http = mm.http();
    let ann = game.account("ann", AccountKind::Player).await;
    // The tickets table goes away under the running matchmaker.
    let path = mm_db.sqlite_path().expect("sqlite");
    let url = format!("sqlite://{}", path.display());
    let mut conn = <sqlx::SqliteConnection as sqlx::Connection>::connect(&url)
        .await
        .expect("open the database");
    sqlx::query("ALTER TABLE tickets RENAME TO tickets_gone")
        .execute(&mut conn)
        .await
        .expect("rename");
    let want = Expected::new(Code::Internal, "internal");

    let grpc = client
        .enqueue(authed(enqueue_request("mas", &[2], false), &ann.token))
        .await
        .expect_err("no tickets table");
    let rest = http
        .call(
            "POST",
            "/v1/tickets",
            Some(&ann.token),
            Some(json!({"rules": {"preset": "mas"}})),
        )
        .await;

    want.grpc(&grpc);
    assert_eq!(grpc.message(), "internal error");
    want.rest(&rest);
    assert_eq!(rest.1["message"], "internal error");
    let text = format!("{:?} {}", grpc.get_error_details(), rest.1);
    assert!(!text.contains("tickets"), "{text}");
    assert!(!text.contains("table"), "{text}");
    drop((client, http));
    mm.stop().await;
    game.stop().await;
}

//! Credentials at the matchmaker, which asks the game service who calls:
//! a key without `play` cannot queue (PERMISSION_DENIED `missing_scope`,
//! naming the scope) but may look at tickets; a session logged out at the
//! game service is refused here within a second (counted in answers 50 ms
//! apart), though the matchmaker had just asked about it.

#![allow(clippy::unwrap_used)]

use std::time::Duration;

use serde_json::json;
use skit_proto::v1::{
    AccountKind, CreateApiKeyRequest, CreateGuestRequest, GetTicketRequest, LogoutRequest,
};
use skit_testkit::*;
use tonic::Code;
use tonic_types::StatusExt;

use crate::helpers::enqueue_request;

on_both_databases!(
    a_read_key_cannot_queue,
    a_logout_reaches_the_matchmaker_within_a_second,
);

async fn a_read_key_cannot_queue(game_db: &TestDb) {
    let game = spawn_game(game_db).await;
    let mm_db = TestDb::sqlite();
    let mm = spawn_matchmaker(&mm_db, &game).await;
    let bot = game.account("robot", AccountKind::Bot).await;
    let reader = game
        .accounts()
        .await
        .create_api_key(authed(
            CreateApiKeyRequest {
                label: "watcher".into(),
                scopes: vec!["read".into()],
            },
            &bot.token,
        ))
        .await
        .expect("a read key")
        .into_inner()
        .token;
    let mut client = mm.client().await;

    let refused = client
        .enqueue(authed(enqueue_request("mas", &[2], false), &reader))
        .await
        .expect_err("read cannot queue");

    Expected::new(Code::PermissionDenied, "missing_scope").grpc(&refused);
    let info = refused.get_details_error_info().expect("ErrorInfo");
    assert_eq!(info.metadata.get("scope").map(String::as_str), Some("play"));
    let (status, body) = mm
        .http()
        .call(
            "POST",
            "/v1/tickets",
            Some(&reader),
            Some(json!({"rules": {"preset": "mas"}, "playerCounts": [2]})),
        )
        .await;
    assert_eq!(
        (status, &body["reason"]),
        (403, &json!("missing_scope")),
        "{body}"
    );
    let ticket = mm.enqueue(&bot, enqueue_request("mas", &[2], false)).await;
    let looked = client
        .get_ticket(authed(
            GetTicketRequest {
                ticket_id: ticket.ticket_id.clone(),
                wait_ms: 0,
            },
            &reader,
        ))
        .await;
    assert_eq!(
        looked.expect("read may look").into_inner().ticket_id,
        ticket.ticket_id
    );
    drop(client);
    mm.stop().await;
    game.stop().await;
}

async fn a_logout_reaches_the_matchmaker_within_a_second(game_db: &TestDb) {
    let game = spawn_game(game_db).await;
    let mm_db = TestDb::sqlite();
    let mm = spawn_matchmaker(&mm_db, &game).await;
    let mut accounts = game.accounts().await;
    let ann = accounts
        .create_guest(CreateGuestRequest {
            name: Some("ann".into()),
            request_id: String::new(),
        })
        .await
        .expect("a guest")
        .into_inner();
    let ann = Player {
        id: ann.account_id,
        token: ann.token,
    };
    let ticket = mm.enqueue(&ann, enqueue_request("mas", &[2], false)).await;
    let mut client = mm.client().await;
    let look = || {
        authed(
            GetTicketRequest {
                ticket_id: ticket.ticket_id.clone(),
                wait_ms: 0,
            },
            &ann.token,
        )
    };
    client.get_ticket(look()).await.expect("her ticket");

    accounts
        .logout(authed(LogoutRequest {}, &ann.token))
        .await
        .expect("logged out");

    let mut answers = 0;
    let refused = loop {
        match client.get_ticket(look()).await {
            Ok(_) if answers < 20 => answers += 1,
            Ok(_) => panic!("the matchmaker still accepts the token after 20 answers"),
            Err(refused) => break refused,
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    Expected::new(Code::Unauthenticated, "token_revoked").grpc(&refused);
    drop((client, accounts));
    mm.stop().await;
    game.stop().await;
}

//! The matchmaker's quota and stream cap as a client meets them. The
//! quota is counted in the tickets' database, so on both.

use skit_proto::v1::{
    AccountKind, CancelTicketRequest, GetTicketRequest, TicketState, WatchTicketRequest,
};
use skit_testkit::*;
use tonic::Code;
use tonic_types::StatusExt;

use crate::helpers::*;

on_both_databases!(tickets_past_the_hourly_quota_are_refused_and_none_is_queued);

async fn tickets_past_the_hourly_quota_are_refused_and_none_is_queued(db: &TestDb) {
    // Arrange: two tickets queued and cancelled within the hour.
    let game_db = TestDb::sqlite();
    let game = spawn_game(&game_db).await;
    let mm = spawn_matchmaker_with(db, &game, |c| c.quota_tickets_per_hour = 2).await;
    let ann = game.account("ann", AccountKind::Player).await;
    let mut client = mm.client().await;
    for _ in 0..2 {
        let ticket = mm.enqueue(&ann, enqueue_request("mas", &[4], false)).await;
        let cancel = CancelTicketRequest {
            ticket_id: ticket.ticket_id,
        };
        client
            .cancel_ticket(authed(cancel, &ann.token))
            .await
            .expect("cancel");
    }

    // Act
    let refused = client
        .enqueue(authed(enqueue_request("mas", &[4], false), &ann.token))
        .await
        .expect_err("a third ticket within the hour");
    let rest = mm
        .http()
        .call(
            "POST",
            "/v1/tickets",
            Some(&ann.token),
            Some(serde_json::json!({"rules": {"preset": "mas"}, "playerCounts": [4]})),
        )
        .await;

    // Assert
    Expected::new(Code::ResourceExhausted, "quota_exceeded").grpc(&refused);
    let info = refused.get_details_error_info().expect("ErrorInfo");
    assert_eq!(info.metadata["quota"], "tickets_per_hour");
    assert_eq!(info.metadata["limit"], "2");
    Expected::new(Code::ResourceExhausted, "quota_exceeded").rest(&rest);
    // Nothing was queued: a new ticket for another player is the only one.
    let bo = game.account("bo", AccountKind::Player).await;
    let bos = mm.enqueue(&bo, enqueue_request("mas", &[4], false)).await;
    assert_eq!(bos.state, TicketState::Queued as i32);
    mm.stop().await;
    game.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_holds_at_most_the_cap_of_open_watches() {
    let (game_db, mm_db) = (TestDb::sqlite(), TestDb::sqlite());
    let game = spawn_game(&game_db).await;
    let mm =
        spawn_matchmaker_with(&mm_db, &game, |c| c.limits.max_streams_per_credential = 2).await;
    let ann = game.account("ann", AccountKind::Player).await;
    let ticket = mm.enqueue(&ann, enqueue_request("mas", &[4], false)).await;
    let mut client = mm.client().await;
    let watch = || {
        authed(
            WatchTicketRequest {
                ticket_id: ticket.ticket_id.clone(),
            },
            &ann.token,
        )
    };

    let _first = client.watch_ticket(watch()).await.expect("first watch");
    let _second = client.watch_ticket(watch()).await.expect("second watch");
    let third = client
        .watch_ticket(watch())
        .await
        .expect_err("a third watch");
    let poll = client
        .get_ticket(authed(
            GetTicketRequest {
                ticket_id: ticket.ticket_id.clone(),
                wait_ms: 0,
            },
            &ann.token,
        ))
        .await
        .expect_err("a long poll counts too");

    Expected::new(Code::ResourceExhausted, "too_many_streams").grpc(&third);
    Expected::new(Code::ResourceExhausted, "too_many_streams").grpc(&poll);
}

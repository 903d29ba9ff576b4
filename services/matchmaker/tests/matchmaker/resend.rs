//! Enqueue with a request id: a resend after a lost answer returns the
//! first ticket as it is now, also once it was matched, so a player is
//! never queued (and seated) twice; the id is the caller's own, and reusing
//! it for another request is refused. On both databases.

use std::time::Duration;

use serde_json::json;
use skit_proto::v1::{AccountKind, EnqueueRequest, Ticket, TicketState};
use skit_testkit::*;
use tonic::{Code, Status};

use crate::helpers::*;

on_both_databases!(a_resent_enqueue_returns_the_first_ticket);

const SETTLE: Duration = Duration::from_secs(10);

fn with_id(request: EnqueueRequest, request_id: &str) -> EnqueueRequest {
    EnqueueRequest {
        request_id: request_id.into(),
        ..request
    }
}

async fn enqueue(
    mm: &Matchmaker,
    player: &Player,
    request: EnqueueRequest,
) -> Result<Ticket, Status> {
    mm.client()
        .await
        .enqueue(authed(request, &player.token))
        .await
        .map(tonic::Response::into_inner)
}

async fn a_resent_enqueue_returns_the_first_ticket(mm_db: &TestDb) {
    // Arrange
    let game_db = TestDb::sqlite();
    let game = spawn_game(&game_db).await;
    let mm = spawn_matchmaker(mm_db, &game).await;
    let ann = game.account("ann", AccountKind::Player).await;
    let bo = game.account("bo", AccountKind::Player).await;
    let for_two = || enqueue_request("mas", &[2], false);

    // Act: ann queues and resends; reuses the id for another request
    let first = mm.enqueue(&ann, with_id(for_two(), "q-1")).await;
    let resent = mm.enqueue(&ann, with_id(for_two(), "q-1")).await;
    let other_counts = enqueue(
        &mm,
        &ann,
        with_id(enqueue_request("mas", &[2, 3], false), "q-1"),
    )
    .await
    .expect_err("the id with other player counts");
    let other_rules = mm
        .http()
        .call(
            "POST",
            "/v1/tickets",
            Some(&ann.token),
            Some(
                json!({"rules": {"preset": "two-player"}, "playerCounts": [2], "requestId": "q-1"}),
            ),
        )
        .await;
    let malformed = [
        "q\0nul".to_owned(),
        "line\nbreak".to_owned(),
        "x".repeat(129),
    ];
    let mut refusals = Vec::new();
    for id in &malformed {
        refusals.push(
            enqueue(&mm, &ann, with_id(for_two(), id))
                .await
                .expect_err(id),
        );
    }

    // Assert: one queued ticket, the same one
    assert_eq!(first.state, TicketState::Queued as i32);
    assert_eq!(resent.ticket_id, first.ticket_id, "the first ticket again");
    assert_eq!(resent.state, TicketState::Queued as i32);
    let reused = Expected {
        field: Some("request_id"),
        ..Expected::new(Code::AlreadyExists, "request_id_reused")
    };
    reused.grpc(&other_counts);
    reused.rest(&other_rules);
    for refusal in &refusals {
        Expected::invalid("request_id").grpc(refusal);
    }

    // Act: bo queues with the same id (ids are per account); they are
    // matched, and then ann's answer is lost once more and she resends
    let bos = mm.enqueue(&bo, with_id(for_two(), "q-1")).await;
    let matched = mm.settled(&ann, &first, SETTLE).await;
    let after_match = mm.enqueue(&ann, with_id(for_two(), "q-1")).await;
    let over_rest = mm
        .http()
        .call(
            "POST",
            "/v1/tickets",
            Some(&ann.token),
            Some(json!({"rules": {"preset": "mas"}, "playerCounts": [2], "requestId": "q-1"})),
        )
        .await;
    // A new id is a new request: a second ticket, queued (so the resends
    // above queued nothing: an account holds one queued ticket at most).
    let next = mm.enqueue(&ann, with_id(for_two(), "q-2")).await;

    // Assert: the matched ticket again, and ann sits in exactly one game
    assert_ne!(bos.ticket_id, first.ticket_id, "bo's own ticket");
    assert_eq!(matched.state, TicketState::Matched as i32, "{matched:?}");
    assert_eq!(after_match.ticket_id, first.ticket_id);
    assert_eq!(after_match.state, TicketState::Matched as i32);
    assert_eq!(after_match.game_id, matched.game_id);
    assert_eq!(after_match.seat, matched.seat);
    assert_eq!(over_rest.0, 200, "{}", over_rest.1);
    assert_eq!(over_rest.1["ticketId"], json!(first.ticket_id));
    assert_eq!(over_rest.1["state"], "TICKET_STATE_MATCHED");
    assert_ne!(next.ticket_id, first.ticket_id);
    assert_eq!(next.state, TicketState::Queued as i32);
    assert_eq!(games_of(&game, &ann).await.len(), 1, "one game, not two");
    mm.stop().await;
    game.stop().await;
}

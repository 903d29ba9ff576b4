//! The ticket API: validation, one queued ticket per account, cancel, and
//! watching a ticket until it is matched.

use std::time::Duration;

use skit_proto::v1::{
    AccountKind, CancelTicketRequest, EnqueueRequest, GetTicketRequest, Rules, TicketState,
    WatchTicketRequest,
};
use skit_testkit::*;
use tokio_stream::StreamExt;
use tonic::{Code, Request};

use crate::helpers::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_requests_are_refused_by_field() {
    let (game_db, mm_db) = (TestDb::sqlite(), TestDb::sqlite());
    let game = spawn_game(&game_db).await;
    let mm = spawn_matchmaker(&mm_db, &game).await;
    let ann = game.account("ann", AccountKind::Player).await;
    let mut client = mm.client().await;

    let bad_count = client
        .enqueue(authed(enqueue_request("mas", &[2, 5], false), &ann.token))
        .await
        .expect_err("mas is for 2 to 4");
    let bad_rules = client
        .enqueue(authed(
            enqueue_request("no-such-game", &[2], false),
            &ann.token,
        ))
        .await
        .expect_err("unknown preset");
    let bad_option = client
        .enqueue(authed(
            EnqueueRequest {
                rules: Some(Rules {
                    preset: "skitgubbe".into(),
                    options: Some(
                        serde_json::from_value(serde_json::json!({ "phase2.pickup": "sideways" }))
                            .expect("struct"),
                    ),
                }),
                ..Default::default()
            },
            &ann.token,
        ))
        .await
        .expect_err("unknown option value");
    let anonymous = client
        .enqueue(Request::new(enqueue_request("mas", &[2], false)))
        .await
        .expect_err("no token");
    let unknown = client
        .enqueue(authed(enqueue_request("mas", &[2], false), "skt_nobody"))
        .await
        .expect_err("unknown token");

    assert_eq!(bad_count.code(), Code::InvalidArgument);
    assert!(
        bad_count.message().starts_with("player_counts[1]:"),
        "{bad_count:?}"
    );
    assert_eq!(bad_rules.code(), Code::InvalidArgument);
    assert!(bad_rules.message().starts_with("rules."), "{bad_rules:?}");
    assert_eq!(bad_option.code(), Code::InvalidArgument);
    assert!(
        bad_option.message().contains("phase2.pickup"),
        "{bad_option:?}"
    );
    assert_eq!(anonymous.code(), Code::Unauthenticated);
    assert_eq!(unknown.code(), Code::Unauthenticated);
    // Nothing was queued: a good request now succeeds.
    mm.enqueue(&ann, enqueue_request("mas", &[2], false)).await;
    drop(client);
    mm.stop().await;
    game.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_queued_ticket_per_account() {
    let (game_db, mm_db) = (TestDb::sqlite(), TestDb::sqlite());
    let game = spawn_game(&game_db).await;
    let mm = spawn_matchmaker(&mm_db, &game).await;
    let ann = game.account("ann", AccountKind::Player).await;
    let first = mm.enqueue(&ann, enqueue_request("mas", &[2], false)).await;

    let second = mm
        .client()
        .await
        .enqueue(authed(
            enqueue_request("skitgubbe", &[3], false),
            &ann.token,
        ))
        .await
        .expect_err("second queued ticket");

    assert_eq!(second.code(), Code::FailedPrecondition);
    assert!(second.message().contains(&first.ticket_id), "{second:?}");
    mm.stop().await;
    game.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancelled_tickets_are_never_matched() {
    let (game_db, mm_db) = (TestDb::sqlite(), TestDb::sqlite());
    let game = spawn_game(&game_db).await;
    let mm = spawn_matchmaker(&mm_db, &game).await;
    let ann = game.account("ann", AccountKind::Player).await;
    let bo = game.account("bo", AccountKind::Player).await;
    let cy = game.account("cy", AccountKind::Player).await;
    let mut client = mm.client().await;
    let a = mm.enqueue(&ann, enqueue_request("mas", &[3], false)).await;

    let by_other = client
        .cancel_ticket(authed(
            CancelTicketRequest {
                ticket_id: a.ticket_id.clone(),
            },
            &bo.token,
        ))
        .await
        .expect_err("not bo's ticket");
    let cancel = CancelTicketRequest {
        ticket_id: a.ticket_id.clone(),
    };
    let cancelled = client
        .cancel_ticket(authed(cancel.clone(), &ann.token))
        .await
        .expect("cancel")
        .into_inner();
    let again = client
        .cancel_ticket(authed(cancel, &ann.token))
        .await
        .expect("cancelling again returns it")
        .into_inner();
    let b = mm
        .enqueue(&bo, enqueue_request("mas", &[2, 3], false))
        .await;
    let c = mm
        .enqueue(&cy, enqueue_request("mas", &[2, 3], false))
        .await;
    let b = mm.settled(&bo, &b, Duration::from_secs(10)).await;
    let c = mm.settled(&cy, &c, Duration::from_secs(10)).await;

    assert_eq!(by_other.code(), Code::PermissionDenied);
    assert_eq!(cancelled.state, TicketState::Cancelled as i32);
    assert_eq!(again, cancelled);
    // bo and cy play two-handed rather than seat ann's cancelled ticket.
    assert_eq!(b.state, TicketState::Matched as i32);
    assert_eq!(b.game_id, c.game_id);
    assert!(games_of(&game, &ann).await.is_empty());
    let matched_cancel = client
        .cancel_ticket(authed(
            CancelTicketRequest {
                ticket_id: b.ticket_id.clone(),
            },
            &bo.token,
        ))
        .await
        .expect_err("already matched");
    assert_eq!(matched_cancel.code(), Code::FailedPrecondition);
    let b_now = client
        .get_ticket(authed(
            GetTicketRequest {
                ticket_id: b.ticket_id.clone(),
                wait_ms: 0,
            },
            &bo.token,
        ))
        .await
        .expect("get")
        .into_inner();
    assert_eq!(b_now.state, TicketState::Matched as i32, "unchanged");
    drop(client);
    mm.stop().await;
    game.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn watch_follows_a_ticket_to_its_game() {
    let (game_db, mm_db) = (TestDb::sqlite(), TestDb::sqlite());
    let game = spawn_game(&game_db).await;
    let mm = spawn_matchmaker(&mm_db, &game).await;
    let ann = game.account("ann", AccountKind::Player).await;
    let bo = game.account("bo", AccountKind::Player).await;
    let a = mm
        .enqueue(&ann, enqueue_request("two-player", &[2], false))
        .await;
    let mut stream = mm
        .client()
        .await
        .watch_ticket(authed(
            WatchTicketRequest {
                ticket_id: a.ticket_id.clone(),
            },
            &ann.token,
        ))
        .await
        .expect("watch")
        .into_inner();
    let first = stream.next().await.expect("first").expect("ticket");

    mm.enqueue(&bo, enqueue_request("two-player", &[2], false))
        .await;
    let mut seen = vec![first];
    while let Some(next) = tokio::time::timeout(Duration::from_secs(10), stream.next())
        .await
        .expect("the stream moves on")
    {
        seen.push(next.expect("ticket"));
    }

    assert_eq!(seen[0].state, TicketState::Queued as i32);
    let last = seen.last().expect("last");
    assert_eq!(last.state, TicketState::Matched as i32, "{seen:?}");
    assert!(last.game_id.is_some());
    mm.stop().await;
    game.stop().await;
}

//! The matchmaker's quota and stream cap as a client meets them. The
//! quota is counted in the tickets' database, so on both, and holds under
//! concurrent calls to two matchmakers sharing it.

use skit_proto::v1::{
    AccountKind, CancelTicketRequest, GetTicketRequest, TicketState, WatchTicketRequest,
};
use skit_testkit::*;
use tonic::Code;
use tonic_types::StatusExt;

use crate::helpers::*;

on_both_databases!(
    tickets_past_the_hourly_quota_are_refused_and_none_is_queued,
    the_hourly_quota_holds_under_concurrent_enqueues_on_two_matchmakers,
);

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

/// Queues and cancels `player`'s tickets until the quota refuses one; how
/// many were queued. A call that meets another client's queued ticket
/// (or the one it just cancelled) tries again.
async fn queue_until_refused(mm: &Matchmaker, player: &Player) -> usize {
    let mut client = mm.client().await;
    let mut queued = 0;
    for _ in 0..5_000 {
        let request = authed(enqueue_request("mas", &[4], false), &player.token);
        match client.enqueue(request).await {
            Ok(ticket) => {
                queued += 1;
                let cancel = CancelTicketRequest {
                    ticket_id: ticket.into_inner().ticket_id,
                };
                client
                    .cancel_ticket(authed(cancel, &player.token))
                    .await
                    .expect("cancel");
            }
            Err(refused) if refused.code() == Code::ResourceExhausted => {
                Expected::new(Code::ResourceExhausted, "quota_exceeded").grpc(&refused);
                return queued;
            }
            Err(_) => {}
        }
    }
    panic!("never refused; {queued} tickets queued");
}

async fn the_hourly_quota_holds_under_concurrent_enqueues_on_two_matchmakers(db: &TestDb) {
    // Arrange: two matchmakers on one database, without rate limits.
    let game_db = TestDb::sqlite();
    let game = spawn_game_with(&game_db, |c| c.limits.limits = false).await;
    let config = |c: &mut skit_matchmaker::Config| {
        c.quota_tickets_per_hour = 10;
        c.limits.limits = false;
    };
    let ann = game.account("ann", AccountKind::Player).await;
    let mut started = Vec::new();
    for _ in 0..2 {
        // Each started once the one before serves, as they are deployed.
        let mm = spawn_matchmaker_with(db, &game, config).await;
        let unknown = GetTicketRequest {
            ticket_id: "no-such-ticket".into(),
            wait_ms: 0,
        };
        let answer = mm
            .client()
            .await
            .get_ticket(authed(unknown, &ann.token))
            .await;
        assert_ne!(answer.expect_err("no such ticket").code(), Code::Unknown);
        started.push(mm);
    }
    let mms: [Matchmaker; 2] = started.try_into().expect("two");
    let mms = std::sync::Arc::new(mms);

    let mut players = vec![ann];
    for name in ["bo", "cy"] {
        players.push(game.account(name, AccountKind::Player).await);
    }

    // Act: sixteen clients of each player queue and cancel at once,
    // through both matchmakers.
    let clients: Vec<_> = (0..48)
        .map(|i| {
            let (mms, player) = (mms.clone(), players[i % 3].clone());
            let queueing = async move { queue_until_refused(&mms[i % 2], &player).await };
            (i % 3, tokio::spawn(queueing))
        })
        .collect();
    let mut queued = [0; 3];
    for (player, client) in clients {
        queued[player] += client.await.expect("a client");
    }

    // Assert
    assert_eq!(queued, [10; 3], "tickets queued against a quota of 10");
    let [one, two] = std::sync::Arc::into_inner(mms).expect("the clients are done");
    one.stop().await;
    two.stop().await;
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

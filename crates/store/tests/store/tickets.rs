//! The matchmaker's tickets and planned matches, on both backends: one
//! queued ticket per account, claims that never seat a ticket twice, and
//! cancels that race safely with claims.

#![allow(clippy::unwrap_used)]

use serde_json::json;
use skit_store::on_both_databases;
use skit_store::testing::TestDb;
use skit_store::{
    AccountId, Enqueued, MatchSeat, NewTicket, PlannedMatch, Store, Ticket, TicketState,
};
use tokio::task::JoinSet;

on_both_databases!(
    enqueue_and_read_back,
    one_queued_ticket_per_account,
    a_request_id_finds_its_ticket_whatever_became_of_it,
    plan_confirm_and_abandon,
    claimed_or_cancelled_tickets_are_not_claimed_again,
    racing_claims_seat_each_ticket_once,
    cancel_and_claim_race_safely,
    planned_matches_survive_a_reconnect,
);

fn new_ticket(account: i64) -> NewTicket {
    NewTicket {
        account_id: AccountId(account),
        guest: false,
        rules: json!({ "preset": "mas" }),
        ruleset_key: "mas".into(),
        player_counts: vec![2, 3],
        allow_bots: true,
        rating: 1.5,
        request_id: None,
    }
}

async fn enqueued(store: &Store, account: i64) -> Ticket {
    match store.enqueue(new_ticket(account)).await.unwrap() {
        Enqueued::New(t) => t,
        Enqueued::AlreadyQueued(t) | Enqueued::Requested(t) => panic!("not new: {t:?}"),
    }
}

fn planned(id: &str, tickets: &[&Ticket]) -> PlannedMatch {
    PlannedMatch {
        id: id.into(),
        rules: json!({ "preset": "mas" }),
        rated: true,
        seats: tickets
            .iter()
            .map(|t| MatchSeat {
                account_id: t.account_id,
                ticket: Some(t.id),
            })
            .chain([MatchSeat {
                account_id: AccountId(999),
                ticket: None,
            }])
            .collect(),
    }
}

async fn enqueue_and_read_back(db: &TestDb) {
    let store = db.connect().await.unwrap();

    let ticket = enqueued(&store, 7).await;

    assert_eq!(ticket.state, TicketState::Queued);
    assert!(ticket.is_waiting());
    assert_eq!(ticket.player_counts, [2, 3]);
    assert_eq!(ticket.rules, json!({ "preset": "mas" }));
    assert_eq!(ticket.rating, 1.5);
    assert_eq!(store.ticket(ticket.id).await.unwrap(), Some(ticket.clone()));
    assert_eq!(store.waiting_tickets(10).await.unwrap(), [ticket]);
}

async fn one_queued_ticket_per_account(db: &TestDb) {
    let store = db.connect().await.unwrap();
    let first = enqueued(&store, 7).await;

    let again = store.enqueue(new_ticket(7)).await.unwrap();

    assert_eq!(again, Enqueued::AlreadyQueued(first.clone()));
    assert_eq!(store.waiting_tickets(10).await.unwrap().len(), 1);
    // Once cancelled, the account may queue again.
    store.cancel_ticket(first.id).await.unwrap();
    assert!(matches!(
        store.enqueue(new_ticket(7)).await.unwrap(),
        Enqueued::New(_)
    ));
}

async fn a_request_id_finds_its_ticket_whatever_became_of_it(db: &TestDb) {
    let store = db.connect().await.unwrap();
    let with_id = |account: i64, id: &str| NewTicket {
        request_id: Some(id.into()),
        ..new_ticket(account)
    };
    let Enqueued::New(first) = store.enqueue(with_id(7, "q-1")).await.unwrap() else {
        panic!("a new ticket")
    };

    let again = store.enqueue(with_id(7, "q-1")).await.unwrap();
    let others = store.enqueue(with_id(8, "q-1")).await.unwrap();
    store
        .plan_match(&planned("m-1", &[&first, &enqueued(&store, 9).await]))
        .await
        .unwrap();
    store.confirm_match("m-1", "game-1").await.unwrap();
    let after_match = store.enqueue(with_id(7, "q-1")).await.unwrap();

    assert_eq!(first.request_id.as_deref(), Some("q-1"));
    assert_eq!(again, Enqueued::Requested(first.clone()));
    assert!(matches!(others, Enqueued::New(_)), "ids are per account");
    let Enqueued::Requested(matched) = after_match else {
        panic!("the first ticket, not {after_match:?}")
    };
    assert_eq!(matched.id, first.id);
    assert_eq!(matched.state, TicketState::Matched);
    assert_eq!(matched.game_id.as_deref(), Some("game-1"));
}

async fn plan_confirm_and_abandon(db: &TestDb) {
    let store = db.connect().await.unwrap();
    let (a, b, c, d) = (
        enqueued(&store, 1).await,
        enqueued(&store, 2).await,
        enqueued(&store, 3).await,
        enqueued(&store, 4).await,
    );

    assert!(store.plan_match(&planned("m1", &[&a, &b])).await.unwrap());
    assert!(store.plan_match(&planned("m2", &[&c, &d])).await.unwrap());
    let claimed = store.ticket(b.id).await.unwrap().unwrap();
    assert_eq!(
        claimed.state,
        TicketState::Queued,
        "queued until the game exists"
    );
    assert_eq!(claimed.match_id.as_deref(), Some("m1"));
    assert_eq!(claimed.seat, Some(1));
    assert!(store.waiting_tickets(10).await.unwrap().is_empty());

    store.confirm_match("m1", "game-1").await.unwrap();
    store.confirm_match("m1", "game-1").await.unwrap();
    store.abandon_match("m2").await.unwrap();

    let b = store.ticket(b.id).await.unwrap().unwrap();
    assert_eq!(b.state, TicketState::Matched);
    assert_eq!((b.game_id.as_deref(), b.seat), (Some("game-1"), Some(1)));
    let waiting: Vec<_> = store
        .waiting_tickets(10)
        .await
        .unwrap()
        .into_iter()
        .map(|t| t.id)
        .collect();
    assert_eq!(
        waiting,
        [c.id, d.id],
        "an abandoned match's tickets wait again"
    );
    let future = time::OffsetDateTime::now_utc() + time::Duration::hours(1);
    assert!(store.planned_matches(future).await.unwrap().is_empty());
}

async fn claimed_or_cancelled_tickets_are_not_claimed_again(db: &TestDb) {
    let store = db.connect().await.unwrap();
    let (a, b, c) = (
        enqueued(&store, 1).await,
        enqueued(&store, 2).await,
        enqueued(&store, 3).await,
    );
    assert!(store.plan_match(&planned("m1", &[&a, &b])).await.unwrap());
    store.cancel_ticket(c.id).await.unwrap();

    assert!(!store.plan_match(&planned("m2", &[&c, &b])).await.unwrap());
    assert!(!store.plan_match(&planned("m3", &[&c])).await.unwrap());

    // The failed plans stored nothing: c is still cancelled and unclaimed.
    let c = store.ticket(c.id).await.unwrap().unwrap();
    assert_eq!((c.state, c.match_id), (TicketState::Cancelled, None));
    let future = time::OffsetDateTime::now_utc() + time::Duration::hours(1);
    let open: Vec<_> = store
        .planned_matches(future)
        .await
        .unwrap()
        .into_iter()
        .map(|m| m.id)
        .collect();
    assert_eq!(open, ["m1"]);
    // A claimed ticket cannot be cancelled.
    let b = store.cancel_ticket(b.id).await.unwrap().unwrap();
    assert_eq!(b.state, TicketState::Queued);
}

async fn racing_claims_seat_each_ticket_once(db: &TestDb) {
    let store = db.connect().await.unwrap();
    let mut tickets = Vec::new();
    for account in 0..12 {
        tickets.push(enqueued(&store, account).await);
    }
    // Eight "matchmakers" each try to claim overlapping pairs.
    let mut claims = JoinSet::new();
    for i in 0..8_usize {
        let store = db.connect().await.unwrap();
        let pair = [tickets[i].clone(), tickets[(i * 5 + 3) % 12].clone()];
        claims.spawn(async move {
            let m = planned(&format!("m{i}"), &[&pair[0], &pair[1]]);
            store.plan_match(&m).await.unwrap().then_some(m)
        });
    }
    let won: Vec<PlannedMatch> = claims.join_all().await.into_iter().flatten().collect();

    let mut seated = std::collections::HashSet::new();
    for m in &won {
        for seat in &m.seats {
            if let Some(t) = seat.ticket {
                assert!(seated.insert(t), "ticket {t} in two matches");
                let stored = store.ticket(t).await.unwrap().unwrap();
                assert_eq!(stored.match_id.as_deref(), Some(m.id.as_str()));
            }
        }
    }
    assert!(!won.is_empty());
}

async fn cancel_and_claim_race_safely(db: &TestDb) {
    let store = db.connect().await.unwrap();
    for round in 0..10 {
        let (a, b) = (
            enqueued(&store, round * 2).await,
            enqueued(&store, round * 2 + 1).await,
        );
        let other = db.connect().await.unwrap();
        let m = planned(&format!("m{round}"), &[&a, &b]);
        let claim = tokio::spawn(async move { other.plan_match(&m).await.unwrap() });
        let cancelled = store.cancel_ticket(a.id).await.unwrap().unwrap();
        let claimed = claim.await.unwrap();

        let a = store.ticket(a.id).await.unwrap().unwrap();
        // Exactly one of them won, and the ticket shows which.
        assert_ne!(claimed, cancelled.state == TicketState::Cancelled);
        match claimed {
            true => assert_eq!((a.state, a.match_id.is_some()), (TicketState::Queued, true)),
            false => assert_eq!((a.state, a.match_id), (TicketState::Cancelled, None)),
        }
    }
}

async fn planned_matches_survive_a_reconnect(db: &TestDb) {
    let store = db.connect().await.unwrap();
    let (a, b) = (enqueued(&store, 1).await, enqueued(&store, 2).await);
    let m = planned("m1", &[&a, &b]);
    assert!(store.plan_match(&m).await.unwrap());
    store.shutdown().await;
    drop(store);

    let store = db.connect().await.unwrap();
    let future = time::OffsetDateTime::now_utc() + time::Duration::hours(1);
    let past = time::OffsetDateTime::now_utc() - time::Duration::hours(1);

    assert_eq!(store.planned_matches(future).await.unwrap(), [m]);
    assert!(store.planned_matches(past).await.unwrap().is_empty());
}

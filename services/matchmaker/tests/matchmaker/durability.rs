//! Tickets outlive the matchmaker: a restart keeps the queue, finishes a
//! match planned before a crash without a second game, and two matchmakers
//! on one Postgres database never seat one ticket twice.

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use serde_json::json;
use skit_proto::v1::{AccountKind, CreateGameRequest, SeatSpec, TicketState};
use skit_store::{AccountId, MatchSeat, NewTicket, PlannedMatch, Store};
use skit_testkit::*;

use crate::helpers::*;

const SETTLE: Duration = Duration::from_secs(15);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_keeps_queued_tickets() {
    let (game_db, mm_db) = (TestDb::sqlite(), TestDb::sqlite());
    let game = spawn_game(&game_db).await;
    let ann = game.account("ann", AccountKind::Player).await;
    let bo = game.account("bo", AccountKind::Player).await;
    let mm = spawn_matchmaker(&mm_db, &game).await;
    let a = mm
        .enqueue(&ann, enqueue_request("two-player", &[2], false))
        .await;
    mm.stop().await;

    let mm = spawn_matchmaker(&mm_db, &game).await;
    let still = mm.settled(&ann, &a, Duration::ZERO).await;
    assert_eq!(
        still.state,
        TicketState::Queued as i32,
        "the ticket survived"
    );
    mm.enqueue(&bo, enqueue_request("two-player", &[2], false))
        .await;
    let matched = mm.settled(&ann, &a, SETTLE).await;

    assert_eq!(matched.state, TicketState::Matched as i32);
    assert_eq!(games_of(&game, &bo).await.len(), 1);
    mm.stop().await;
    game.stop().await;
}

/// Stores a match as a crashed matchmaker would have left it: planned,
/// tickets claimed, the game maybe created, nothing confirmed.
async fn crashed_mid_match(mm_db: &TestDb, players: &[&Player]) -> PlannedMatch {
    let store = Store::connect(mm_db.url()).await.expect("store");
    let mut seats = Vec::new();
    for p in players {
        let ticket = NewTicket {
            account_id: AccountId(p.id.parse().expect("id")),
            guest: false,
            rules: json!({ "preset": "two-player" }),
            ruleset_key: "two-player".into(),
            player_counts: vec![2],
            allow_bots: false,
            rating: 0.0,
            request_id: None,
        };
        let skit_store::Enqueued::New(t) = store.enqueue(ticket).await.expect("enqueue") else {
            panic!("already queued");
        };
        seats.push(MatchSeat {
            account_id: t.account_id,
            ticket: Some(t.id),
        });
    }
    let planned = PlannedMatch {
        id: uuid::Uuid::new_v4().to_string(),
        rules: json!({ "preset": "two-player" }),
        rated: true,
        seats,
    };
    assert!(store.plan_match(&planned).await.expect("plan"));
    store.close().await;
    planned
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_match_planned_before_a_crash_gets_one_game() {
    let (game_db, mm_db) = (TestDb::sqlite(), TestDb::sqlite());
    let game = spawn_game(&game_db).await;
    let ann = game.account("ann", AccountKind::Player).await;
    let bo = game.account("bo", AccountKind::Player).await;
    let planned = crashed_mid_match(&mm_db, &[&ann, &bo]).await;
    // The crash came after CreateGame succeeded but before the tickets
    // were marked: the game exists under the match id.
    let created = game
        .games()
        .await
        .create_game(authed(
            CreateGameRequest {
                rules: rules("two-player"),
                players: 2,
                seats: [&ann, &bo]
                    .iter()
                    .map(|p| SeatSpec {
                        account_id: Some(p.id.clone()),
                    })
                    .collect(),
                rated: true,
                request_id: planned.id.clone(),
                ..Default::default()
            },
            OPERATOR_TOKEN,
        ))
        .await
        .expect("create")
        .into_inner();

    let mm = spawn_matchmaker(&mm_db, &game).await;
    let store = Store::connect(mm_db.url()).await.expect("store");
    let ticket_id = planned.seats[0].ticket.expect("ticket");
    let mut ticket = store
        .ticket(ticket_id)
        .await
        .expect("read")
        .expect("ticket");
    for _ in 0..200 {
        if ticket.state == skit_store::TicketState::Matched {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
        ticket = store
            .ticket(ticket_id)
            .await
            .expect("read")
            .expect("ticket");
    }

    assert_eq!(ticket.state, skit_store::TicketState::Matched);
    assert_eq!(
        ticket.game_id.as_deref(),
        Some(created.game_id.as_str()),
        "the same game"
    );
    assert_eq!(games_of(&game, &ann).await.len(), 1, "not a second game");
    store.close().await;
    mm.stop().await;
    game.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_matchmakers_seat_every_ticket_at_most_once() {
    let game_db = TestDb::sqlite();
    let mm_db = TestDb::postgres().await;
    let game = spawn_game(&game_db).await;
    let one = spawn_matchmaker(&mm_db, &game).await;
    let two = spawn_matchmaker(&mm_db, &game).await;
    let mut players = Vec::new();
    for i in 0..24 {
        players.push(game.account(&format!("p{i}"), AccountKind::Player).await);
    }

    // Alternate instances; mixed counts so tables of 2, 3 and 4 form.
    let mut tickets = Vec::new();
    for (i, p) in players.iter().enumerate() {
        let mm = if i % 2 == 0 { &one } else { &two };
        let counts: &[u32] = match i % 3 {
            0 => &[2, 3],
            1 => &[3, 4],
            _ => &[2, 3, 4],
        };
        tickets.push(mm.enqueue(p, enqueue_request("mas", counts, false)).await);
    }
    let mut settled_tickets = Vec::new();
    for (i, (p, t)) in players.iter().zip(&tickets).enumerate() {
        let mm = if i % 2 == 0 { &two } else { &one };
        settled_tickets.push(mm.settled(p, t, Duration::from_secs(3)).await);
    }

    let mut by_game: HashMap<String, Vec<&skit_proto::v1::Ticket>> = HashMap::new();
    for t in &settled_tickets {
        if let Some(g) = &t.game_id {
            by_game.entry(g.clone()).or_default().push(t);
        }
    }
    let matched = settled_tickets
        .iter()
        .filter(|t| t.state == TicketState::Matched as i32)
        .count();
    assert!(matched >= 20, "most tickets are seated: {matched}");
    for (player, ticket) in players.iter().zip(&settled_tickets) {
        let games = games_of(&game, player).await;
        let expected = usize::from(ticket.state == TicketState::Matched as i32);
        assert_eq!(
            games.len(),
            expected,
            "{player:?} sits in {} games",
            games.len()
        );
    }
    for (game_id, seated) in &by_game {
        let accounts: HashSet<&String> = seated.iter().map(|t| &t.account_id).collect();
        let seats: HashSet<u32> = seated.iter().filter_map(|t| t.seat).collect();
        assert_eq!(
            accounts.len(),
            seated.len(),
            "game {game_id}: an account twice"
        );
        assert_eq!(seats.len(), seated.len(), "game {game_id}: a seat twice");
    }
    one.stop().await;
    two.stop().await;
    game.stop().await;
}

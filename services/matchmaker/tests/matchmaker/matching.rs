//! Tables formed end to end: tickets in, games out, checked at the real
//! game service.

use std::time::Duration;

use skit_proto::v1::{AccountKind, TicketState};
use skit_testkit::*;

use crate::helpers::*;

const SETTLE: Duration = Duration::from_secs(10);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn compatible_tickets_become_one_rated_game() {
    let (game_db, mm_db) = (TestDb::sqlite(), TestDb::sqlite());
    let game = spawn_game(&game_db).await;
    let mm = spawn_matchmaker(&mm_db, &game).await;
    let ann = game.account("ann", AccountKind::Player).await;
    let bo = game.account("bo", AccountKind::Player).await;
    let cy = game.account("cy", AccountKind::Player).await;

    let a = mm
        .enqueue(&ann, enqueue_request("mas", &[2, 3], false))
        .await;
    let b = mm
        .enqueue(&bo, enqueue_request("mas", &[3, 4], false))
        .await;
    let c = mm.enqueue(&cy, enqueue_request("mas", &[], false)).await;
    assert_eq!(a.state, TicketState::Queued as i32);
    assert_eq!(a.ruleset_key, "mas");
    assert_eq!(a.player_counts, [2, 3]);
    assert_eq!(
        c.player_counts,
        [2, 3, 4],
        "empty: every count of the preset"
    );

    let tickets = [
        mm.settled(&ann, &a, SETTLE).await,
        mm.settled(&bo, &b, SETTLE).await,
        mm.settled(&cy, &c, SETTLE).await,
    ];

    assert!(
        tickets
            .iter()
            .all(|t| t.state == TicketState::Matched as i32),
        "{tickets:?}"
    );
    let game_id = tickets[0].game_id.clone().expect("game id");
    assert!(tickets.iter().all(|t| t.game_id.as_ref() == Some(&game_id)));
    let mut seats: Vec<u32> = tickets.iter().map(|t| t.seat.expect("seat")).collect();
    seats.sort_unstable();
    assert_eq!(
        seats,
        [0, 1, 2],
        "three players: the count all three accept"
    );
    let listed = games_of(&game, &ann).await;
    assert_eq!(listed.len(), 1);
    let summary = &listed[0];
    assert_eq!(summary.game_id, game_id);
    assert!(summary.rated, "matchmade games are rated");
    assert_eq!(summary.preset, "mas");
    for (ticket, player) in tickets.iter().zip([&ann, &bo, &cy]) {
        let seat = &summary.seats[ticket.seat.expect("seat") as usize];
        assert_eq!(
            seat.account_id.as_ref(),
            Some(&player.id),
            "each player in their seat"
        );
    }
    mm.stop().await;
    game.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bots_fill_a_table_after_the_wait() {
    let (game_db, mm_db) = (TestDb::sqlite(), TestDb::sqlite());
    let game = spawn_game(&game_db).await;
    let mm = spawn_matchmaker(&mm_db, &game).await;
    let bots = [game.house_bot("bot-1").await, game.house_bot("bot-2").await];
    let ann = game.account("ann", AccountKind::Player).await;

    let ticket = mm
        .enqueue(&ann, enqueue_request("skitgubbe", &[3], true))
        .await;
    let matched = mm.settled(&ann, &ticket, SETTLE).await;

    assert_eq!(matched.state, TicketState::Matched as i32);
    let listed = games_of(&game, &ann).await;
    assert_eq!(listed.len(), 1);
    let mut seated: Vec<String> = listed[0]
        .seats
        .iter()
        .filter_map(|s| s.account_id.clone())
        .collect();
    seated.sort();
    let mut expected = vec![ann.id.clone(), bots[0].id.clone(), bots[1].id.clone()];
    expected.sort();
    assert_eq!(seated, expected, "ann and both bots, each once");
    mm.stop().await;
    game.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_house_bots_fill_a_table() {
    let (game_db, mm_db) = (TestDb::sqlite(), TestDb::sqlite());
    let game = spawn_game(&game_db).await;
    let mm = spawn_matchmaker(&mm_db, &game).await;
    // Someone else's bots, created before and after the operator's one:
    // listed first or last, they are still never taken.
    let theirs = game.account("their-bot-1", AccountKind::Bot).await;
    let house = game.house_bot("house-1").await;
    let theirs_too = game.account("their-bot-2", AccountKind::Bot).await;
    let ann = game.account("ann", AccountKind::Player).await;

    // A two-seat table: one house bot is enough.
    let ticket = mm
        .enqueue(&ann, enqueue_request("two-player", &[2], true))
        .await;
    let matched = mm.settled(&ann, &ticket, SETTLE).await;

    assert_eq!(matched.state, TicketState::Matched as i32);
    let listed = games_of(&game, &ann).await;
    assert_eq!(listed.len(), 1);
    let mut seated: Vec<String> = listed[0]
        .seats
        .iter()
        .filter_map(|s| s.account_id.clone())
        .collect();
    seated.sort();
    let mut expected = vec![ann.id.clone(), house.id.clone()];
    expected.sort();
    assert_eq!(seated, expected, "ann and the house bot");
    for bot in [&theirs, &theirs_too] {
        assert!(
            games_of(&game, bot).await.is_empty(),
            "a third-party bot sits in no game"
        );
    }
    mm.stop().await;
    game.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn third_party_bots_never_fill_a_table() {
    let (game_db, mm_db) = (TestDb::sqlite(), TestDb::sqlite());
    let game = spawn_game(&game_db).await;
    let mm = spawn_matchmaker(&mm_db, &game).await;
    let theirs = [
        game.account("their-bot-1", AccountKind::Bot).await,
        game.account("their-bot-2", AccountKind::Bot).await,
    ];
    let ann = game.account("ann", AccountKind::Player).await;

    // Bots allowed and the fill wait long past, but no house bot: the
    // ticket waits.
    let ticket = mm
        .enqueue(&ann, enqueue_request("skitgubbe", &[3], true))
        .await;
    let after = mm.settled(&ann, &ticket, Duration::from_millis(1500)).await;

    assert_eq!(after.state, TicketState::Queued as i32, "{after:?}");
    assert!(games_of(&game, &ann).await.is_empty());
    for bot in &theirs {
        assert!(games_of(&game, bot).await.is_empty());
    }
    mm.stop().await;
    game.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn alone_for_any_size_the_usual_table_is_filled() {
    let (game_db, mm_db) = (TestDb::sqlite(), TestDb::sqlite());
    let game = spawn_game(&game_db).await;
    let mm = spawn_matchmaker(&mm_db, &game).await;
    for name in ["bot-1", "bot-2", "bot-3", "bot-4"] {
        game.house_bot(name).await;
    }
    let ann = game.account("ann", AccountKind::Player).await;

    let ticket = mm
        .enqueue(&ann, enqueue_request("skitgubbe", &[], true))
        .await;
    let matched = mm.settled(&ann, &ticket, SETTLE).await;

    assert_eq!(matched.state, TicketState::Matched as i32);
    let listed = games_of(&game, &ann).await;
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].seats.len(), 3, "skitgubbe's usual three");
    mm.stop().await;
    game.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn incompatible_tickets_wait() {
    let (game_db, mm_db) = (TestDb::sqlite(), TestDb::sqlite());
    let game = spawn_game(&game_db).await;
    let mm = spawn_matchmaker(&mm_db, &game).await;
    game.house_bot("bot-1").await;
    let ann = game.account("ann", AccountKind::Player).await;
    let bo = game.account("bo", AccountKind::Player).await;
    let cy = game.account("cy", AccountKind::Player).await;
    let dee = game.guest("dee").await;

    // Other presets, disjoint counts, a guest beside rated tickets, and
    // nobody allowing bots.
    let a = mm.enqueue(&ann, enqueue_request("mas", &[2], false)).await;
    let b = mm
        .enqueue(&bo, enqueue_request("skitgubbe", &[2], false))
        .await;
    let c = mm
        .enqueue(&cy, enqueue_request("mas", &[3, 4], false))
        .await;
    let d = mm.enqueue(&dee, enqueue_request("mas", &[2], false)).await;

    for (player, ticket) in [(&ann, &a), (&bo, &b), (&cy, &c), (&dee, &d)] {
        let after = mm.settled(player, ticket, Duration::from_millis(800)).await;
        assert_eq!(after.state, TicketState::Queued as i32, "{after:?}");
        assert!(games_of(&game, player).await.is_empty());
    }
    mm.stop().await;
    game.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn guests_are_matched_unrated() {
    let (game_db, mm_db) = (TestDb::sqlite(), TestDb::sqlite());
    let game = spawn_game(&game_db).await;
    let mm = spawn_matchmaker(&mm_db, &game).await;
    let (ann, bo) = (game.guest("ann").await, game.guest("bo").await);

    let a = mm
        .enqueue(&ann, enqueue_request("two-player", &[], false))
        .await;
    mm.enqueue(&bo, enqueue_request("two-player", &[2], false))
        .await;
    let matched = mm.settled(&ann, &a, SETTLE).await;

    assert_eq!(matched.state, TicketState::Matched as i32);
    let listed = games_of(&game, &bo).await;
    assert_eq!(listed.len(), 1);
    assert!(!listed[0].rated, "guests play unrated");
    mm.stop().await;
    game.stop().await;
}

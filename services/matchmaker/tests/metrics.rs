//! `/metrics` shows the matchmaker's own figures. A binary of its own: the
//! counters are process-wide, so the tickets and games of the other
//! matchmaker tests would move them.

use std::time::Duration;

use skit_proto::v1::{AccountKind, EnqueueRequest, Rules, TicketState};
use skit_testkit::{TestDb, spawn_game, spawn_matchmaker};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_show_the_matchmakers_own_figures() {
    let (game_db, mm_db) = (TestDb::sqlite(), TestDb::sqlite());
    let game = spawn_game(&game_db).await;
    let mm = spawn_matchmaker(&mm_db, &game).await;
    for name in ["bot-1", "bot-2"] {
        game.house_bot(name).await;
    }
    let ann = game.account("ann", AccountKind::Player).await;

    let request = EnqueueRequest {
        rules: Some(Rules {
            preset: "skitgubbe".into(),
            options: None,
        }),
        player_counts: vec![3],
        allow_bots: true,
        request_id: String::new(),
    };
    let ticket = mm.enqueue(&ann, request).await;
    let matched = mm.settled(&ann, &ticket, Duration::from_secs(20)).await;
    let (status, text) = mm.http().text("GET", "/metrics", None, None).await;

    assert_eq!(matched.state, TicketState::Matched as i32);
    assert_eq!(status, 200, "{text}");
    for line in [
        "skit_mm_tickets_enqueued_total 1",
        "skit_mm_games_created_total 1",
        "skit_mm_bot_seats_total 2",
        "skit_mm_ticket_wait_seconds_count 1",
        "skit_mm_tickets_waiting ",
    ] {
        assert!(text.contains(line), "{line} missing:\n{text}");
    }
    mm.stop().await;
    game.stop().await;
}

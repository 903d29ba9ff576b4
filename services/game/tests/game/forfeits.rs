//! Time that tolerates jitter (docs/clocks.md): an overage bank pays for a
//! slow move, and a seat whose bank runs out under `ON_TIMEOUT_FORFEIT`
//! loses alone while the others play the game out. Limits are short; the
//! tests wait with long polls and assert behaviour, never speed.

use std::time::Duration;

use skit_proto::v1::{
    EndReason, EventKind, OnTimeout, Phase, TimeControl, View,
    time_control::{Clock, Overage},
};
use skit_testkit::TestDb;
use skit_testkit::*;
use tonic::Code;

use crate::clocks::{app, duration, timed_game, turn, view_after};

on_both_databases!(
    a_slow_move_draws_on_the_bank_instead_of_losing,
    a_seat_out_of_time_forfeits_alone_and_the_others_play_on,
);

fn overage(per_move_ms: i64, bank_ms: i64) -> TimeControl {
    TimeControl {
        clock: Some(Clock::Overage(Overage {
            per_move: Some(duration(per_move_ms)),
            bank: Some(duration(bank_ms)),
            increment: None,
        })),
        on_timeout: OnTimeout::Forfeit as i32,
    }
}

fn millis(d: &pbjson_types::Duration) -> i64 {
    d.seconds * 1000 + i64::from(d.nanos) / 1_000_000
}

async fn a_slow_move_draws_on_the_bank_instead_of_losing(db: &TestDb) {
    // Arrange: 200 ms a move, and a 5 s bank.
    let app = app(db).await;
    let (guests, game) = timed_game(&app, "skitgubbe", 3, Some(overage(200, 5_000))).await;
    let mut client = app.games().await;
    let first = view(&mut client, &game, 0, &guests[0].token).await;
    let seat = turn(&first);
    let token = &guests[seat as usize].token;
    let mine = view(&mut client, &game, seat, token).await;
    assert_eq!(mine.seats[seat as usize].time_left, Some(duration(5_000)));

    // Act: the seat overruns the move's 200 ms, then moves.
    tokio::time::sleep(Duration::from_millis(700)).await;
    let action = mine.legal_actions[0].clone();
    let reply = client
        .submit_move(authed(submit(&game, seat, &mine, action, "slow"), token))
        .await
        .expect("a move within the bank is accepted")
        .into_inner();

    // Assert: only the overrun came out of the bank; nobody forfeited.
    let after = reply.view.expect("view");
    let left = millis(
        after.seats[seat as usize]
            .time_left
            .as_ref()
            .expect("a bank"),
    );
    assert!(left <= 4_500, "the overrun was not charged: {left} ms left");
    assert!(
        left > 0,
        "more than the overrun was charged: {left} ms left"
    );
    assert!(after.seats.iter().all(|s| !s.forfeited));
    assert_ne!(after.phase, Phase::Over as i32);
}

async fn a_seat_out_of_time_forfeits_alone_and_the_others_play_on(db: &TestDb) {
    // Arrange: 1 s a move and a 1 s bank; the first seat to act never moves.
    let app = app(db).await;
    let (guests, game) = timed_game(&app, "skitgubbe", 3, Some(overage(1_000, 1_000))).await;
    let mut client = app.games().await;
    let first = view(&mut client, &game, 0, &guests[0].token).await;
    let slow = turn(&first);

    // Act: wait for the forfeit, then play the others' moves until the end
    // while the clock plays the slow seat.
    let mut seen = first;
    while !seen.seats[slow as usize].forfeited {
        seen = view_after(
            &app,
            &game,
            slow,
            &guests[slow as usize].token,
            seen.version,
        )
        .await;
        assert_ne!(seen.phase, Phase::Over as i32, "the game ended: {seen:?}");
    }
    let forfeited_view = seen.clone();
    let mut moves = 0;
    while seen.phase != Phase::Over as i32 && moves < 2_000 {
        let others: Vec<u32> = seen.to_act.iter().copied().filter(|&s| s != slow).collect();
        let Some(&seat) = others.first() else {
            // Only the forfeited seat is to act: the clock plays it.
            seen = view_after(
                &app,
                &game,
                slow,
                &guests[slow as usize].token,
                seen.version,
            )
            .await;
            continue;
        };
        let token = &guests[seat as usize].token;
        let mine = view(&mut client, &game, seat, token).await;
        if let Some(action) = mine.legal_actions.first().cloned() {
            let id = format!("m{moves}");
            // A stale version (the clock moved first) is simply retried.
            let _ = client
                .submit_move(authed(submit(&game, seat, &mine, action, &id), token))
                .await;
            moves += 1;
        }
        seen = view(&mut client, &game, slow, &guests[slow as usize].token).await;
    }

    // Assert: the forfeit is reported in the seat, the history and the
    // result; the others played on for their own places.
    assert!(
        forfeited_view.legal_actions.is_empty(),
        "the clock plays a forfeited seat"
    );
    assert_eq!(
        seen.phase,
        Phase::Over as i32,
        "the others finished the game"
    );
    let result = seen.result.as_ref().expect("a result");
    assert_eq!(result.reason, EndReason::Forfeit as i32);
    assert_eq!(result.loser, Some(slow));
    assert_eq!(seen.loser, Some(slow));
    assert_eq!(result.places[slow as usize], 3);
    let mut others: Vec<u32> = (0..3)
        .filter(|&s| s != slow)
        .map(|s| result.places[s as usize])
        .collect();
    others.sort_unstable();
    assert!(
        others == [1, 2] || others == [1, 1],
        "places {:?}",
        result.places
    );
    let forfeits: Vec<_> = seen
        .history
        .iter()
        .filter(|e| e.kind == EventKind::Forfeit as i32)
        .collect();
    assert_eq!(forfeits.len(), 1, "one forfeit: {:?}", seen.history);
    assert_eq!(forfeits[0].seat, Some(slow));
    let versions: Vec<u64> = seen.history.iter().map(|e| e.version).collect();
    assert!(
        versions.is_sorted(),
        "history in version order: {versions:?}"
    );
    let played_for = seen
        .history
        .iter()
        .filter(|e| e.version > forfeits[0].version && e.seat == Some(slow))
        .all(|e| e.by_clock);
    assert!(played_for, "after the forfeit the clock plays the seat");
    assert!(seen.seats[slow as usize].forfeited);
    assert!(seen.seats.iter().filter(|s| s.forfeited).count() == 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forfeited_seat_may_not_move_or_resign() {
    // Arrange: the first seat to act lets its 100 ms + 100 ms run out.
    let db = TestDb::sqlite();
    let app = app(&db).await;
    let (guests, game) = timed_game(&app, "skitgubbe", 3, Some(overage(100, 100))).await;
    let mut client = app.games().await;
    let mut seen: View = view(&mut client, &game, 0, &guests[0].token).await;
    let slow = turn(&seen);
    let token = &guests[slow as usize].token;
    while !seen.seats[slow as usize].forfeited {
        seen = view_after(&app, &game, slow, token, seen.version).await;
    }

    // Act: its holder tries to move and to resign.
    let pickup = skit_proto::v1::Action {
        kind: Some(skit_proto::v1::action::Kind::Pickup(true)),
    };
    let moved = client
        .submit_move(authed(
            submit(&game, slow, &seen, pickup, "late-move"),
            token,
        ))
        .await
        .expect_err("a forfeited seat cannot move");
    let resign = client
        .resign(authed(
            skit_proto::v1::ResignRequest {
                game_id: game.clone(),
                seat: slow,
                move_id: "late".into(),
            },
            token,
        ))
        .await
        .expect_err("a forfeited seat cannot resign");

    // Assert: refused by name, and nothing changed.
    Expected::new(Code::FailedPrecondition, "seat_forfeited").grpc(&moved);
    Expected::new(Code::FailedPrecondition, "seat_forfeited").grpc(&resign);
    let after = view(&mut client, &game, slow, token).await;
    assert!(
        after
            .history
            .iter()
            .all(|e| e.kind != EventKind::Resign as i32)
    );
    assert!(after.seats[slow as usize].forfeited);
}

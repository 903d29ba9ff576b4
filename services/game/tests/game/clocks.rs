//! Turn clocks and resignation, over gRPC, on SQLite and Postgres. Limits
//! are short (a few hundred milliseconds); the tests wait for what the
//! service does with long polls and assert behaviour, never speed.

use std::time::Duration;

use skit_proto::v1::{
    Action as ApiAction, CreateGameRequest, EndReason, EventKind, GetViewRequest, HistoryEvent,
    OnTimeout, Phase, ResignRequest, Rules, SeatSpec, TimeControl, View,
    action::Kind,
    time_control::{Bank, Clock},
};
use skit_testkit::TestDb;
use skit_testkit::*;
use tonic::Code;

on_both_databases!(
    per_move_timeout_plays_a_bot_move,
    per_move_timeout_loses,
    bank_is_charged_and_credited,
    deadline_survives_a_restart,
    resign_ends_the_game,
    move_before_the_deadline_wins,
);

/// Clock limits this short are allowed in these tests only.
pub(crate) async fn app(db: &TestDb) -> GameService {
    spawn_game_with(db, |config| config.clock_min_limit_ms = 100).await
}

pub(crate) fn duration(ms: i64) -> pbjson_types::Duration {
    pbjson_types::Duration {
        seconds: ms / 1000,
        nanos: (ms % 1000 * 1_000_000) as i32,
    }
}

fn per_move(ms: i64, on_timeout: OnTimeout) -> TimeControl {
    TimeControl {
        clock: Some(Clock::PerMove(duration(ms))),
        on_timeout: on_timeout as i32,
    }
}

/// A game with one guest per seat under `time_control`.
pub(crate) async fn timed_game(
    app: &GameService,
    preset: &str,
    players: usize,
    time_control: Option<TimeControl>,
) -> (Vec<Player>, String) {
    let mut guests = Vec::new();
    for i in 0..players {
        guests.push(app.guest(&format!("p{i}")).await);
    }
    let req = CreateGameRequest {
        rules: Some(Rules {
            preset: preset.into(),
            options: None,
        }),
        players: players as u32,
        seats: guests
            .iter()
            .map(|g| SeatSpec {
                account_id: Some(g.id.clone()),
            })
            .collect(),
        time_control,
        ..Default::default()
    };
    // The operator seats the guests, as the matchmaker would.
    let created = app
        .games()
        .await
        .create_game(authed(req, OPERATOR_TOKEN))
        .await
        .expect("create")
        .into_inner();
    (guests, created.game_id)
}

/// Seat `seat`'s view once the version is past `after` (or after 8 s).
pub(crate) async fn view_after(
    app: &GameService,
    game: &str,
    seat: u32,
    token: &str,
    after: u64,
) -> View {
    let req = GetViewRequest {
        game_id: game.into(),
        seat: Some(seat),
        wait_for_version_after: Some(after),
        timeout_ms: 8000,
        ..Default::default()
    };
    app.games()
        .await
        .get_view(authed(req, token))
        .await
        .expect("view")
        .into_inner()
}

/// The seat whose turn it is in `v`.
pub(crate) fn turn(v: &View) -> u32 {
    *v.to_act.first().expect("a seat to act")
}

fn clock_events(v: &View) -> Vec<&HistoryEvent> {
    v.history.iter().filter(|e| e.by_clock).collect()
}

async fn per_move_timeout_plays_a_bot_move(db: &TestDb) {
    // Arrange
    let app = app(db).await;
    let control = per_move(300, OnTimeout::BotMove);
    let (guests, game) = timed_game(&app, "skitgubbe", 2, Some(control)).await;
    let mut client = app.games().await;
    let before = view(&mut client, &game, 0, &guests[0].token).await;
    let slow = turn(&before);
    assert!(before.seats[slow as usize].deadline.is_some());
    assert!(before.seats[1 - slow as usize].deadline.is_none());
    assert_eq!(before.time_control, Some(control));

    // Act: nobody moves.
    let after = view_after(&app, &game, 0, &guests[0].token, before.version).await;

    // Assert: a bot moved for the slow seat, and the game goes on with the
    // next seat's clock running.
    let by_clock = clock_events(&after);
    assert!(
        !by_clock.is_empty(),
        "no move by the clock: {:?}",
        after.history
    );
    assert_eq!(by_clock[0].seat, Some(slow));
    assert_ne!(after.phase, Phase::Over as i32);
    let next = turn(&after);
    assert!(after.seats[next as usize].deadline.is_some());
}

async fn per_move_timeout_loses(db: &TestDb) {
    // Arrange
    let app = app(db).await;
    let control = per_move(300, OnTimeout::Lose);
    let (guests, game) = timed_game(&app, "skitgubbe", 3, Some(control)).await;
    let mut client = app.games().await;
    let before = view(&mut client, &game, 1, &guests[1].token).await;
    let slow = turn(&before);

    // Act: nobody moves.
    let after = view_after(&app, &game, 1, &guests[1].token, before.version).await;

    // Assert
    assert_eq!(after.phase, Phase::Over as i32);
    assert_eq!(after.loser, Some(slow));
    let result = after.result.expect("a result");
    assert_eq!(result.reason, EndReason::Timeout as i32);
    assert_eq!(result.loser, Some(slow));
    assert_eq!(result.places[slow as usize], 3);
    let last = after.history.last().expect("history");
    assert_eq!(last.kind, EventKind::Timeout as i32);
    assert_eq!(last.seat, Some(slow));
    assert!(after.seats.iter().all(|s| s.deadline.is_none()));
    assert!(after.legal_actions.is_empty());
}

async fn bank_is_charged_and_credited(db: &TestDb) {
    // Arrange: a 10 s bank with a 5 s increment.
    let app = app(db).await;
    let control = TimeControl {
        clock: Some(Clock::Bank(Bank {
            initial: Some(duration(10_000)),
            increment: Some(duration(5_000)),
        })),
        on_timeout: OnTimeout::Lose as i32,
    };
    let (guests, game) = timed_game(&app, "skitgubbe", 2, Some(control)).await;
    let mut client = app.games().await;
    let before = view(&mut client, &game, 0, &guests[0].token).await;
    let seat = turn(&before);
    for s in &before.seats {
        assert_eq!(s.time_left, Some(duration(10_000)));
    }
    let token = &guests[seat as usize].token;
    let mine = view(&mut client, &game, seat, token).await;

    // Act: think for a while, then move.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let action = mine.legal_actions[0].clone();
    let reply = client
        .submit_move(authed(submit(&game, seat, &mine, action, "m1"), token))
        .await
        .expect("move")
        .into_inner();

    // Assert: the time used went out of the bank and the increment in.
    let after = reply.view.expect("view");
    let left = after.seats[seat as usize].time_left.expect("time left");
    let left_ms = left.seconds * 1000 + i64::from(left.nanos) / 1_000_000;
    assert!(
        left_ms <= 14_700,
        "the time used was not charged: {left_ms} ms"
    );
    assert!(
        left_ms > 10_000,
        "the increment was not credited: {left_ms} ms"
    );
    let other = &after.seats[1 - seat as usize];
    assert_eq!(other.time_left, Some(duration(10_000)));
}

async fn deadline_survives_a_restart(db: &TestDb) {
    // Arrange: a running clock, then the service stops.
    let app = app(db).await;
    let control = per_move(400, OnTimeout::Lose);
    let (guests, game) = timed_game(&app, "skitgubbe", 2, Some(control)).await;
    let before = view(&mut app.games().await, &game, 0, &guests[0].token).await;
    let slow = turn(&before);
    app.stop().await;
    tokio::time::sleep(Duration::from_millis(600)).await;

    // Act: a new instance on the same database.
    let app = self::app(db).await;
    let after = view_after(&app, &game, 0, &guests[0].token, before.version).await;

    // Assert: the deadline that ran out while no service ran was applied.
    assert_eq!(after.phase, Phase::Over as i32);
    assert_eq!(after.loser, Some(slow));
    let reason = after.result.expect("result").reason;
    assert_eq!(reason, EndReason::Timeout as i32);
}

async fn resign_ends_the_game(db: &TestDb) {
    // Arrange: an untimed game of three.
    let app = app(db).await;
    let (guests, game) = timed_game(&app, "skitgubbe", 3, None).await;
    let mut client = app.games().await;
    let resign = |seat: u32, id: &str| ResignRequest {
        game_id: game.clone(),
        seat,
        move_id: id.into(),
    };

    // Act + Assert: only the seat's holder may resign it.
    let denied = client
        .resign(authed(resign(1, "r1"), &guests[0].token))
        .await
        .expect_err("not my seat");
    assert_eq!(denied.code(), Code::PermissionDenied);

    // Act: seat 1 resigns, whoever is to act.
    let reply = client
        .resign(authed(resign(1, "r1"), &guests[1].token))
        .await
        .expect("resign")
        .into_inner();

    // Assert
    let v = reply.view.expect("view");
    assert_eq!(v.phase, Phase::Over as i32);
    assert_eq!(v.loser, Some(1));
    assert!(v.to_act.is_empty() && v.legal_actions.is_empty());
    let result = v.result.expect("result");
    assert_eq!(result.reason, EndReason::Resigned as i32);
    assert_eq!(result.places, vec![1, 3, 1]);
    assert!(!result.seed.is_empty(), "the seed is revealed");
    let last = v.history.last().expect("history");
    assert_eq!(last.kind, EventKind::Resign as i32);
    assert_eq!(last.seat, Some(1));
    assert_eq!(last.version, reply.version);

    // Resending is answered with the first outcome.
    let again = client
        .resign(authed(resign(1, "r1"), &guests[1].token))
        .await
        .expect("resent resign")
        .into_inner();
    assert_eq!(again.version, reply.version);

    // A resignation after the end is refused and changes nothing.
    let late = client
        .resign(authed(resign(2, "r2"), &guests[2].token))
        .await
        .expect_err("over");
    assert_eq!(late.code(), Code::FailedPrecondition);
    let end = view(&mut client, &game, 2, &guests[2].token).await;
    assert_eq!(end.version, reply.version);
    assert_eq!(end.loser, Some(1));
}

async fn move_before_the_deadline_wins(db: &TestDb) {
    // Arrange: a 400 ms clock that would lose the game.
    let app = app(db).await;
    let control = per_move(400, OnTimeout::Lose);
    let (guests, game) = timed_game(&app, "skitgubbe", 2, Some(control)).await;
    let mut client = app.games().await;
    let before = view(&mut client, &game, 0, &guests[0].token).await;
    let quick = turn(&before);
    let token = &guests[quick as usize].token;
    let mine = view(&mut client, &game, quick, token).await;

    // Act: the seat moves in time; then nobody moves.
    let action = mine.legal_actions[0].clone();
    let moved = client
        .submit_move(authed(submit(&game, quick, &mine, action, "quick"), token))
        .await
        .expect("a move in time is accepted")
        .into_inner();
    tokio::time::sleep(Duration::from_millis(600)).await;
    let mut after = view(&mut client, &game, quick, token).await;
    while after.phase != Phase::Over as i32 {
        after = view_after(&app, &game, quick, token, after.version).await;
    }

    // Assert: the quick seat's move stands; the seat that did not move
    // after it lost on time.
    let first_move = after
        .history
        .iter()
        .find(|e| e.version == moved.version || e.seat == Some(quick))
        .expect("the move is in the history");
    assert!(!first_move.by_clock);
    assert_ne!(after.loser, Some(quick));
    assert_eq!(
        after.result.expect("result").reason,
        EndReason::Timeout as i32
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_time_controls_are_refused_naming_the_field() {
    // Arrange
    let db = TestDb::sqlite();
    let app = app(&db).await;
    let guest = app.guest("ann").await;
    let create = |tc: TimeControl| {
        authed(
            CreateGameRequest {
                players: 2,
                time_control: Some(tc),
                ..Default::default()
            },
            &guest.token,
        )
    };
    let mut client = app.games().await;

    // Act
    let short = client
        .create_game(create(per_move(50, OnTimeout::Lose)))
        .await
        .expect_err("too short");
    let no_clock = client
        .create_game(create(TimeControl {
            clock: None,
            on_timeout: 0,
        }))
        .await
        .expect_err("no clock");
    let bad_enum = client
        .create_game(create(TimeControl {
            clock: Some(Clock::PerMove(duration(1000))),
            on_timeout: 9,
        }))
        .await
        .expect_err("unknown on_timeout");

    // Assert
    assert_eq!(short.code(), Code::InvalidArgument);
    assert_eq!(
        short.message(),
        "time_control.per_move: must be between 100ms and 24h"
    );
    assert!(no_clock.message().starts_with("time_control.clock"));
    assert!(bad_enum.message().starts_with("time_control.on_timeout"));
}

/// A seat in a sluffing window whose clock runs out passes, even when
/// running out would otherwise lose the game.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn window_seat_passes_on_timeout() {
    use rand::SeedableRng;
    use rand::seq::IndexedRandom;
    // Arrange: play `allplay` (sluff once) by hand until a seat may pass.
    let db = TestDb::sqlite();
    let app = app(&db).await;
    let control = per_move(1500, OnTimeout::Lose);
    let (guests, game) = timed_game(&app, "allplay", 3, Some(control)).await;
    let mut client = app.games().await;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
    let is_pass = |a: &ApiAction| matches!(a.kind, Some(Kind::Pass(true)));
    let mut window = None;
    'play: for step in 0..400 {
        let mut views = Vec::new();
        for (seat, g) in guests.iter().enumerate() {
            views.push(view(&mut client, &game, seat as u32, &g.token).await);
        }
        assert_ne!(views[0].phase, Phase::Over as i32, "no window came up");
        for (seat, v) in views.iter().enumerate() {
            if v.legal_actions.iter().any(is_pass) {
                window = Some((seat as u32, v.version));
                break 'play;
            }
        }
        let (seat, v) = views
            .iter()
            .enumerate()
            .filter(|(_, v)| !v.legal_actions.is_empty())
            .collect::<Vec<_>>()
            .choose(&mut rng)
            .copied()
            .expect("someone may act");
        let action = v.legal_actions.choose(&mut rng).expect("legal").clone();
        let req = submit(&game, seat as u32, v, action, &format!("m{step}"));
        client
            .submit_move(authed(req, &guests[seat].token))
            .await
            .expect("legal move");
    }
    let (seat, version) = window.expect("a window within 400 moves");

    // Act: nobody acts.
    let token = &guests[seat as usize].token;
    let mut after = view_after(&app, &game, seat, token, version).await;
    while after.phase != Phase::Over as i32
        && !after
            .history
            .iter()
            .any(|e| e.version > version && e.seat == Some(seat))
    {
        after = view_after(&app, &game, seat, token, after.version).await;
    }

    // Assert: the window seat passed by the clock instead of losing.
    let event = after
        .history
        .iter()
        .find(|e| e.version > version && e.seat == Some(seat))
        .expect("the seat's event");
    assert_eq!(event.kind, EventKind::Pass as i32);
    assert!(event.by_clock);
}

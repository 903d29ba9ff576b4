//! What operator actions do to games, on SQLite and Postgres: a voided
//! game is over, unrated and listed as void, and its void audited; a
//! finished game's result stands; a disabled player's seats are played by
//! the game's clock rule (a bot move or a loss in a timed game, a forfeit
//! in an untimed one).

use std::time::Duration;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use skit_proto::v1::{
    AccountKind, AccountStatus, CreateGameRequest, EndReason, EventKind, GetRatingHistoryRequest,
    GetViewRequest, ListAuditLogRequest, ListGamesRequest, OnTimeout, Phase, TimeControl, View,
    VoidGameRequest, time_control::Clock,
};
use skit_testkit::TestDb;
use skit_testkit::*;
use tonic::Code;

use crate::admin::{audit_log, set_status};

on_both_databases!(
    a_voided_game_is_over_unrated_and_listed_as_void,
    a_finished_games_result_stands,
    a_disabled_players_timed_seat_is_played_by_the_clock,
    an_untimed_game_forfeits_a_disabled_players_seat,
);

fn void(game: &str, reason: &str) -> VoidGameRequest {
    VoidGameRequest {
        game_id: game.into(),
        reason: reason.into(),
    }
}

/// Seat `seat`'s view once `done` holds of it (long polls, 10 s at most).
async fn view_until(
    app: &GameService,
    game: &str,
    seat: u32,
    token: &str,
    done: impl Fn(&View) -> bool,
) -> View {
    let mut games = app.games().await;
    let mut last = view(&mut games, game, seat, token).await;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while !done(&last) {
        assert!(tokio::time::Instant::now() < deadline, "never: {last:?}");
        let req = GetViewRequest {
            game_id: game.into(),
            seat: Some(seat),
            wait_for_version_after: Some(last.version),
            timeout_ms: 2000,
            ..Default::default()
        };
        last = games
            .get_view(authed(req, token))
            .await
            .expect("view")
            .into_inner();
    }
    last
}

async fn a_voided_game_is_over_unrated_and_listed_as_void(db: &TestDb) {
    // Arrange: a rated game between two players.
    let app = spawn_game(db).await;
    let players = [
        app.account("Ann", AccountKind::Player).await,
        app.account("Ben", AccountKind::Player).await,
    ];
    let req = CreateGameRequest {
        rated: true,
        ..skitgubbe_for(&players)
    };
    let mut games = app.games().await;
    let game = games
        .create_game(authed(req, OPERATOR_TOKEN))
        .await
        .expect("create")
        .into_inner()
        .game_id;
    let mut admin = app.admin().await;

    // Act
    let no_reason = admin
        .void_game(authed(void(&game, ""), OPERATOR_TOKEN))
        .await
        .expect_err("a void needs a reason");
    let voided = admin
        .void_game(authed(void(&game, "server bug"), OPERATOR_TOKEN))
        .await
        .expect("void")
        .into_inner();
    let again = admin
        .void_game(authed(void(&game, "twice"), OPERATOR_TOKEN))
        .await
        .expect_err("already over");
    let unknown = admin
        .void_game(authed(
            void("00000000-0000-4000-8000-000000000000", "x"),
            OPERATOR_TOKEN,
        ))
        .await
        .expect_err("no such game");

    // Assert
    Expected::invalid("reason").grpc(&no_reason);
    Expected::new(Code::FailedPrecondition, "game_over").grpc(&again);
    assert_eq!(unknown.code(), Code::NotFound);
    let seen = view(&mut games, &game, 0, &players[0].token).await;
    assert_eq!(seen.version, voided.version);
    assert_eq!(seen.phase, Phase::Over as i32);
    assert!(!seen.rated);
    assert!(seen.legal_actions.is_empty());
    let result = seen.result.expect("a result");
    assert_eq!(result.reason, EndReason::Void as i32);
    assert_eq!(result.loser, None);
    assert!(result.places.is_empty());
    assert_eq!(
        seen.history.last().expect("history").kind,
        EventKind::Void as i32
    );
    let listed = games
        .list_games(authed(
            ListGamesRequest {
                include_over: true,
                ..Default::default()
            },
            &players[1].token,
        ))
        .await
        .expect("list")
        .into_inner()
        .games;
    assert!(listed[0].void && !listed[0].rated, "{listed:?}");
    let history = app
        .ratings()
        .await
        .get_rating_history(authed(
            GetRatingHistoryRequest::default(),
            &players[0].token,
        ))
        .await
        .expect("rating history")
        .into_inner();
    assert!(history.changes.is_empty(), "{history:?}");
    let log = audit_log(
        &mut admin,
        ListAuditLogRequest {
            target_game_id: game.clone(),
            ..Default::default()
        },
    )
    .await;
    assert_eq!(log.len(), 1, "only the void that happened: {log:?}");
    assert_eq!(log[0].action, "void_game");
    assert_eq!(log[0].reason, "server bug");
    app.stop().await;
}

async fn a_finished_games_result_stands(db: &TestDb) {
    // Arrange
    let app = spawn_game(db).await;
    let (guests, game, _) = app.game_with_guests(2).await;
    let mut games = app.games().await;
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    play_out(&mut games, &game, &guests, &mut rng, &mut |_, _| {}).await;
    let before = view(&mut games, &game, 0, &guests[0].token).await;

    // Act
    let refused = app
        .admin()
        .await
        .void_game(authed(void(&game, "too late"), OPERATOR_TOKEN))
        .await
        .expect_err("a finished game");

    // Assert
    Expected::new(Code::FailedPrecondition, "game_over").grpc(&refused);
    let after = view(&mut games, &game, 0, &guests[0].token).await;
    assert_eq!(after.result, before.result);
    app.stop().await;
}

async fn a_disabled_players_timed_seat_is_played_by_the_clock(db: &TestDb) {
    // Arrange: a long clock, so only the absence can make it act.
    let app = spawn_game(db).await;
    let players = [
        app.account("Cat", AccountKind::Player).await,
        app.account("Dan", AccountKind::Player).await,
    ];
    let req = CreateGameRequest {
        time_control: Some(TimeControl {
            clock: Some(Clock::PerMove(pbjson_types::Duration {
                seconds: 3600,
                nanos: 0,
            })),
            on_timeout: OnTimeout::BotMove.into(),
        }),
        ..skitgubbe_for(&players)
    };
    let game = app
        .games()
        .await
        .create_game(authed(req, OPERATOR_TOKEN))
        .await
        .expect("create")
        .into_inner()
        .game_id;
    let mut games = app.games().await;
    let (slow, _) = seat_to_act(&mut games, &game, &players).await;
    let other = 1 - slow;

    // Act
    set_status(
        &mut app.admin().await,
        &players[slow as usize].id,
        AccountStatus::Disabled,
        "abandoned",
    )
    .await
    .expect("disable");

    // Assert: the clock's rule (a bot move) played the absent seat.
    let token = &players[other as usize].token;
    let after = view_until(&app, &game, other, token, |v| {
        v.history.iter().any(|e| e.by_clock)
    })
    .await;
    let by_clock: Vec<_> = after.history.iter().filter(|e| e.by_clock).collect();
    assert_eq!(by_clock[0].seat, Some(slow));
    assert_ne!(after.phase, Phase::Over as i32);
    app.stop().await;
}

async fn an_untimed_game_forfeits_a_disabled_players_seat(db: &TestDb) {
    // Arrange
    let app = spawn_game(db).await;
    let players = [
        app.account("Eve", AccountKind::Player).await,
        app.account("Fay", AccountKind::Player).await,
        app.account("Gus", AccountKind::Player).await,
    ];
    let (game, _) = app.game_for(&players).await;

    // Act
    set_status(
        &mut app.admin().await,
        &players[1].id,
        AccountStatus::Banned,
        "cheating",
    )
    .await
    .expect("ban");

    // Assert
    let over = view_until(&app, &game, 0, &players[0].token, |v| {
        v.phase == Phase::Over as i32
    })
    .await;
    let result = over.result.expect("a result");
    assert_eq!(result.loser, Some(1));
    assert_eq!(result.reason, EndReason::Timeout as i32);
    assert_eq!(
        over.history.last().expect("history").kind,
        EventKind::Timeout as i32
    );
    app.stop().await;
}

//! The worker against the real game service: many games at once to the
//! end, a restart in the middle, and seats it does not hold left alone.

use std::time::Duration;

use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;
use skit_api::{Client, Secret};
use skit_botworker::AccountsFile;
use skit_proto::v1::{
    CreateGuestRequest, EventKind, GetHistoryRequest, GetViewRequest, SubmitMoveRequest,
};
use tonic::Code;

use crate::helpers::*;

/// Seat `s` of game `g` goes to account `(g + s) % n`, so accounts hold
/// several seats of one game as well as seats in many games.
fn holders(ids: &[String], game: usize, players: usize) -> Vec<String> {
    (0..players)
        .map(|s| ids[(game + s) % ids.len()].clone())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_worker_plays_many_games_at_once_to_the_end() {
    // Arrange: five bot accounts of three strategies, six games of mixed
    // presets and sizes with every seat held by one of them
    let service = spawn_service().await;
    let dir = tempfile::tempdir().expect("dir");
    let path = dir.path().join("bots.json");
    service.provision(&path, 3, "greedy").await;
    service.provision(&path, 1, "random").await;
    let file = service.provision(&path, 1, "search").await;
    assert_eq!(file.accounts.len(), 5);
    let ids = ids(&file);
    let tables = [
        ("two-player", 2),
        ("skitgubbe", 3),
        ("skitgubbe", 4),
        ("mas", 4),
        ("allplay", 3),
        ("skitgubbe", 2),
    ];
    let mut games = Vec::new();
    for (g, (preset, players)) in tables.into_iter().enumerate() {
        games.push(service.game(preset, &holders(&ids, g, players)).await);
    }

    // Act: one worker plays them all
    let worker = Worker::start(service.config(&path));
    let views = service.wait_over(&games, Duration::from_secs(240)).await;
    worker.stop().await;

    // Assert: every game ended with a result, after real play
    for (view, (preset, players)) in views.iter().zip(tables) {
        let result = view.result.as_ref().expect("a finished game has a result");
        assert!(
            result.loser.is_some() || result.drawn_by_limit,
            "{preset}: {result:?}"
        );
        assert_eq!(view.players as usize, players);
        assert!(
            view.version > 20,
            "{preset} ended after {} events",
            view.version
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_worker_restarted_mid_game_finishes_the_games() {
    // Arrange: two bots, three four-seat games, a worker that plays a while
    let service = spawn_service().await;
    let dir = tempfile::tempdir().expect("dir");
    let path = dir.path().join("bots.json");
    let ids = ids(&service.provision(&path, 2, "greedy").await);
    let mut games = Vec::new();
    for g in 0..3 {
        games.push(service.game("skitgubbe", &holders(&ids, g, 4)).await);
    }
    let first = Worker::start(service.config(&path));
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    loop {
        let mut played = 0;
        for game in &games {
            played += service.spectate(game).await.version;
        }
        if played >= 15 {
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the worker did not play"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }

    // Act: stop it, check nothing moves, start another on the same file
    first.stop().await;
    let mut stopped_at = Vec::new();
    for game in &games {
        stopped_at.push(service.spectate(game).await);
    }
    assert!(
        stopped_at.iter().any(|v| !is_over(v)),
        "every game ended before the restart"
    );
    tokio::time::sleep(Duration::from_millis(500)).await;
    for (game, before) in games.iter().zip(&stopped_at) {
        assert_eq!(
            service.spectate(game).await.version,
            before.version,
            "a stopped worker played on"
        );
    }
    let reloaded = AccountsFile::load(&path).expect("the file survives");
    assert_eq!(reloaded.accounts.len(), 2, "a restart reuses the accounts");
    let second = Worker::start(service.config(&path));
    let views = service.wait_over(&games, Duration::from_secs(240)).await;
    second.stop().await;

    // Assert: every game finished; nothing was played twice (the history is
    // one event per version)
    for (game, view) in games.iter().zip(&views) {
        assert!(view.result.is_some());
        let history = service
            .operator()
            .await
            .games
            .get_history(GetHistoryRequest {
                game_id: game.clone(),
                after_version: None,
                min_version: None,
            })
            .await
            .expect("history")
            .into_inner();
        let mut versions: Vec<u64> = history.events.iter().map(|e| e.version).collect();
        let count = versions.len();
        versions.dedup();
        assert_eq!(versions.len(), count, "two events at one version");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_held_by_a_person_is_left_to_the_person() {
    // Arrange: a two-seat game, seat 0 a person (a guest), seat 1 a bot
    let service = spawn_service().await;
    let dir = tempfile::tempdir().expect("dir");
    let path = dir.path().join("bots.json");
    let bot = ids(&service.provision(&path, 1, "greedy").await).remove(0);
    let mut anonymous = Client::connect(&service.url, Secret::new("none"))
        .await
        .expect("connect");
    let guest = anonymous
        .accounts
        .create_guest(CreateGuestRequest {
            name: Some("ann".into()),
            request_id: String::new(),
        })
        .await
        .expect("guest")
        .into_inner();
    let game = service
        .game("skitgubbe", &[guest.account_id.clone(), bot])
        .await;
    let mut person = Client::connect(&service.url, Secret::new(guest.token))
        .await
        .expect("connect");
    let worker = Worker::start(service.config(&path));

    // Act: the person plays random legal moves; the worker answers
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut made = 0u32;
    let mut waited_on_person = 0;
    let mut after = None;
    loop {
        let view = person
            .games
            .get_view(GetViewRequest {
                game_id: game.clone(),
                seat: Some(0),
                wait_for_version_after: after,
                timeout_ms: 10_000,
                ..Default::default()
            })
            .await
            .expect("view")
            .into_inner();
        if is_over(&view) {
            break;
        }
        if view.legal_actions.is_empty() {
            assert_ne!(after, Some(view.version), "the worker did not answer");
            after = Some(view.version);
            continue;
        }
        if view.to_act == [0] && waited_on_person < 3 {
            // Only the person may act: the worker must not move for them.
            tokio::time::sleep(Duration::from_millis(300)).await;
            assert_eq!(service.spectate(&game).await.version, view.version);
            waited_on_person += 1;
        }
        let action = view.legal_actions.choose(&mut rng).expect("legal").clone();
        let reply = person
            .games
            .submit_move(SubmitMoveRequest {
                game_id: game.clone(),
                seat: 0,
                move_id: format!("ann-{}", view.version),
                expected_version: view.version,
                action: Some(action),
            })
            .await;
        match reply {
            Ok(_) => made += 1,
            // The bot moved first in a window where both may act.
            Err(status) if status.code() == Code::Aborted => {}
            Err(status) => panic!("the person's move was refused: {status}"),
        }
        after = None;
        assert!(made < 2000, "the game did not end");
    }
    worker.stop().await;

    // Assert: the worker waited on the person, and every move of seat 0 in
    // the history is one the person made
    assert!(waited_on_person > 0, "the person never had the only turn");
    let history = service
        .operator()
        .await
        .games
        .get_history(GetHistoryRequest {
            game_id: game,
            after_version: None,
            min_version: None,
        })
        .await
        .expect("history")
        .into_inner();
    let seat_zero = history
        .events
        .iter()
        .filter(|e| e.seat == Some(0) && e.kind != EventKind::Shuffle as i32)
        .count();
    assert_eq!(seat_zero, made as usize);
    let bot_moves = history.events.iter().filter(|e| e.seat == Some(1)).count();
    assert!(bot_moves > 0, "the bot never played");
}

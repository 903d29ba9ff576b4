//! The service with group commit off (`SKIT_GROUP_COMMIT=false`): each move
//! is a commit of its own, written by committers that keep a connection.
//! Concurrent games still reach their end, a resent move is stored once and
//! a move against an old version is refused, on both databases.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use skit_proto::v1::{GetHistoryRequest, View};
use skit_testkit::TestDb;
use skit_testkit::*;
use tonic::Code;

on_both_databases!(
    concurrent_games_end_with_every_move_logged,
    resent_and_stale_moves
);

fn noop(_: u32, _: &View) {}

/// More games at once than the committers of a small pool, so moves queue
/// for a committer while others are being written.
async fn concurrent_games_end_with_every_move_logged(db: &TestDb) {
    let app = spawn_game_with(db, |c| {
        c.group_commit = false;
        c.db_max_connections = 4;
    })
    .await;
    let mut games = Vec::new();
    for _ in 0..6 {
        games.push(app.game_with_guests(3).await);
    }

    let mut played = tokio::task::JoinSet::new();
    for (i, (guests, game, _)) in games.into_iter().enumerate() {
        let mut client = app.games().await;
        played.spawn(async move {
            let mut rng = ChaCha8Rng::seed_from_u64(i as u64);
            let moves = play_out(&mut client, &game, &guests, &mut rng, &mut noop).await;
            let history = client
                .get_history(authed(
                    GetHistoryRequest {
                        game_id: game.clone(),
                        after_version: None,
                        min_version: None,
                    },
                    &guests[0].token,
                ))
                .await
                .expect("history")
                .into_inner();
            let end = view(&mut client, &game, 0, &guests[0].token).await;
            (moves, history, end)
        });
    }
    let results = played.join_all().await;

    for (moves, history, end) in results {
        let result = end.result.expect("every game reaches a result");
        assert!(result.loser.is_some() || result.drawn_by_limit);
        assert!(history.complete);
        assert!(
            history.actions.len() > moves,
            "every move and every shuffle is in the log"
        );
    }
}

async fn resent_and_stale_moves(db: &TestDb) {
    let app = spawn_game_with(db, |c| c.group_commit = false).await;
    let (guests, game, _) = app.game_with_guests(3).await;
    let mut client = app.games().await;
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let before = view(&mut client, &game, 0, &guests[0].token).await;
    random_move(&mut client, &game, &guests, &mut rng, &mut noop)
        .await
        .expect("running")
        .expect("move");
    let (seat, v) = seat_to_act(&mut client, &game, &guests).await;
    let token = &guests[seat as usize].token;
    let req = submit(&game, seat, &v, v.legal_actions[0].clone(), "once");

    let first = client
        .submit_move(authed(req.clone(), token))
        .await
        .expect("first")
        .into_inner();
    let again = client
        .submit_move(authed(req.clone(), token))
        .await
        .expect("resend")
        .into_inner();
    let mut stale = req;
    stale.move_id = "late".into();
    stale.expected_version = before.version;
    let err = client
        .submit_move(authed(stale, token))
        .await
        .expect_err("stale");

    assert_eq!(first.version, again.version);
    assert_eq!(err.code(), Code::Aborted, "{err:?}");
    let now = view(&mut client, &game, seat, token).await;
    assert_eq!(
        now.version, first.version,
        "neither resend nor stale move landed"
    );
}

//! Group commit's contract, on both backends: many games' appends in one
//! commit, each answered exactly as a single append would be, and one
//! game's refusal never failing another's.

#![allow(clippy::unwrap_used)]

use std::time::Duration;

use skit_store::on_both_databases;
use skit_store::testing::TestDb;
use skit_store::{AppendRequest, Appended, Error, GameId, GroupCommit, NewEvent};
use tokio::task::JoinSet;

use crate::helpers::{game_with_seats, played};

on_both_databases!(
    one_batch_answers_each_request,
    concurrent_games_all_commit,
    one_game_racing_itself_has_one_winner,
    grouped_appends_are_noticed,
);

fn request(game_id: GameId, expected_seq: u64, events: Vec<NewEvent>) -> AppendRequest {
    AppendRequest {
        game_id,
        expected_seq,
        events,
        to_act: None,
    }
}

/// A stale seq, a repeated move id, an unknown game and a malformed append
/// in one batch get their own answers; the good appends around them commit.
async fn one_batch_answers_each_request(db: &TestDb) {
    let store = db.connect().await.unwrap();
    let (a, b, c) = (
        game_with_seats(&store, 2).await,
        game_with_seats(&store, 2).await,
        game_with_seats(&store, 2).await,
    );
    let first_c = store
        .append(c.id, 1, &[played(1).with_move_id("m-c")])
        .await
        .unwrap();
    let nowhere = GameId(uuid::Uuid::from_u128(0x5eed));

    let results = store
        .append_batch(&[
            request(a.id, 1, vec![played(1).with_move_id("m-a"), played(2)]),
            request(b.id, 5, vec![played(3)]),
            request(c.id, 2, vec![played(4).with_move_id("m-c")]),
            request(nowhere, 1, vec![played(5)]),
            request(b.id, 1, vec![]),
            // The same game again: after the first request, in order.
            request(a.id, 3, vec![played(6).with_move_id("m-a2")]),
            request(b.id, 1, vec![played(7).with_move_id("m-b")]),
        ])
        .await;

    let seqs = |r: &Result<Vec<skit_store::StoredEvent>, Error>| -> Vec<u64> {
        r.as_ref().unwrap().iter().map(|e| e.seq).collect()
    };
    assert_eq!(seqs(&results[0]), [1, 2]);
    assert!(
        matches!(results[1], Err(Error::Conflict { current_version: 0 })),
        "{:?}",
        results[1]
    );
    match &results[2] {
        Err(Error::DuplicateMove { event }) => assert_eq!(**event, first_c[0]),
        other => panic!("expected DuplicateMove, got {other:?}"),
    }
    assert!(
        matches!(results[3], Err(Error::GameNotFound(g)) if g == nowhere),
        "{:?}",
        results[3]
    );
    assert!(
        matches!(results[4], Err(Error::Invalid(_))),
        "{:?}",
        results[4]
    );
    assert_eq!(seqs(&results[5]), [3]);
    assert_eq!(seqs(&results[6]), [1]);

    let log_a = store.load_events(a.id, 1).await.unwrap();
    assert_eq!(
        log_a,
        [
            results[0].as_ref().unwrap().clone(),
            results[5].as_ref().unwrap().clone()
        ]
        .concat()
    );
    assert_eq!(store.last_seq(b.id).await.unwrap(), Some(1));
    assert_eq!(store.last_seq(c.id).await.unwrap(), Some(1));
}

/// Many games appending at once through one group commit: every append
/// is answered with its events, and the logs hold exactly them.
async fn concurrent_games_all_commit(db: &TestDb) {
    let store = db.connect().await.unwrap();
    let group = GroupCommit::start(store.clone(), 2, 8);
    let mut games = Vec::new();
    for _ in 0..12 {
        games.push(game_with_seats(&store, 2).await.id);
    }

    let mut tasks = JoinSet::new();
    for (g, &game) in games.iter().enumerate() {
        let group = group.clone();
        tasks.spawn(async move {
            for seq in 1..=5u64 {
                let events = vec![played(seq as u32).with_move_id(format!("g{g}-{seq}"))];
                let stored = group.append(game, seq, events, None).await.unwrap();
                assert_eq!(stored.len(), 1);
                assert_eq!((stored[0].game_id, stored[0].seq), (game, seq));
            }
        });
    }
    tasks.join_all().await;

    for (g, &game) in games.iter().enumerate() {
        let log = store.load_events(game, 1).await.unwrap();
        let ids: Vec<_> = log.iter().map(|e| e.move_id.clone().unwrap()).collect();
        let expected: Vec<_> = (1..=5).map(|s| format!("g{g}-{s}")).collect();
        assert_eq!(ids, expected);
    }
}

/// Appends racing for one game's next seq: exactly one wins, the others are
/// told the version that won, and nothing else is written.
async fn one_game_racing_itself_has_one_winner(db: &TestDb) {
    let store = db.connect().await.unwrap();
    let group = GroupCommit::start(store.clone(), 2, 64);
    let game = game_with_seats(&store, 2).await.id;

    let mut tasks = JoinSet::new();
    for i in 0..8 {
        let group = group.clone();
        tasks.spawn(async move {
            group
                .append(game, 1, vec![played(i), played(i)], None)
                .await
        });
    }
    let results = tasks.join_all().await;

    assert_eq!(
        results.iter().filter(|r| r.is_ok()).count(),
        1,
        "{results:?}"
    );
    for r in results.iter().filter(|r| r.is_err()) {
        assert!(
            matches!(r, Err(Error::Conflict { current_version: 2 })),
            "{r:?}"
        );
    }
    assert_eq!(store.last_seq(game).await.unwrap(), Some(2));
}

async fn grouped_appends_are_noticed(db: &TestDb) {
    let store = db.connect().await.unwrap();
    let group = GroupCommit::start(store.clone(), 1, 16);
    let game = game_with_seats(&store, 2).await.id;
    let mut notices = store.subscribe();

    group
        .append(game, 1, vec![played(1), played(2)], None)
        .await
        .unwrap();

    let notice = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            let n = notices.recv().await.unwrap();
            // The game's creation (seq 0) may be noticed first.
            if n.game_id == game && n.seq > 0 {
                return n;
            }
        }
    })
    .await
    .expect("a notice within 10s");
    assert_eq!(notice, Appended::new(game, 2));
}

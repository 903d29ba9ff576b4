//! The store's contract: every test is written once and run against both
//! backends, each on a fresh database of its own (see `skit_store::testing`).
//! A backend passes only if it behaves exactly like the other.

#![allow(clippy::unwrap_used)]

use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::Duration;

use serde_json::json;
use skit_store::on_both_databases;
use skit_store::testing::TestDb;
use skit_store::{AccountId, AccountKind, Appended, Error, GameStatus, Store, ToAct, token_hash};
use tokio::task::JoinSet;

use crate::helpers::{account, game_with_seats, played};

on_both_databases!(
    append_then_load,
    conflicting_seq_appends_nothing,
    duplicate_move_returns_stored_event,
    concurrent_appenders_one_wins,
    join_seat_race_one_winner_per_seat,
    accounts_by_token_hash,
    games_listed_and_finished,
    running_games_not_crowded_out,
    bad_appends_rejected,
    subscriber_sees_appends,
);

async fn append_then_load(db: &TestDb) {
    let store = db.connect().await.unwrap();
    let game = game_with_seats(&store, 2).await;

    let stored = store
        .append(game.id, 1, &[played(1).with_move_id("m1"), played(2)])
        .await
        .unwrap();

    let loaded = store.load_events(game.id, 0).await.unwrap();
    assert_eq!(loaded.len(), 3);
    assert_eq!(loaded[0].kind, "created");
    assert_eq!(loaded[1..], stored[..]);
    assert_eq!(stored[0].seq, 1);
    assert_eq!(stored[0].move_id.as_deref(), Some("m1"));
    assert_eq!(stored[1].payload, json!({ "card": 2 }));
    assert_eq!(store.load_events(game.id, 2).await.unwrap(), stored[1..]);
    assert_eq!(store.last_seq(game.id).await.unwrap(), Some(2));
}

async fn conflicting_seq_appends_nothing(db: &TestDb) {
    let store = db.connect().await.unwrap();
    let game = game_with_seats(&store, 2).await;
    store.append(game.id, 1, &[played(1)]).await.unwrap();

    for stale_or_gap in [1, 0, 5] {
        let err = store
            .append(game.id, stale_or_gap, &[played(9), played(10)])
            .await
            .unwrap_err();
        assert!(
            matches!(err, Error::Conflict { current_version: 1 }),
            "{err:?}"
        );
    }
    assert_eq!(store.load_events(game.id, 0).await.unwrap().len(), 2);
}

async fn duplicate_move_returns_stored_event(db: &TestDb) {
    let store = db.connect().await.unwrap();
    let game = game_with_seats(&store, 2).await;
    let first = store
        .append(game.id, 1, &[played(1).with_move_id("m1")])
        .await
        .unwrap();

    // A retry at the right seq, and one whose seq is stale by now.
    store.append(game.id, 2, &[played(2)]).await.unwrap();
    for expected_seq in [3, 2] {
        let err = store
            .append(game.id, expected_seq, &[played(7).with_move_id("m1")])
            .await
            .unwrap_err();
        let Error::DuplicateMove { event } = err else {
            panic!("expected DuplicateMove, got {err:?}");
        };
        assert_eq!(*event, first[0]);
    }
    assert_eq!(store.load_events(game.id, 0).await.unwrap().len(), 3);
}

async fn concurrent_appenders_one_wins(db: &TestDb) {
    let store = db.connect().await.unwrap();
    let game = game_with_seats(&store, 2).await;

    let mut tasks = JoinSet::new();
    for i in 0..8 {
        let store = store.clone();
        tasks.spawn(async move { store.append(game.id, 1, &[played(i), played(i)]).await });
    }
    let results = tasks.join_all().await;

    let wins = results.iter().filter(|r| r.is_ok()).count();
    assert_eq!(wins, 1, "{results:?}");
    for r in results.iter().filter(|r| r.is_err()) {
        assert!(
            matches!(r, Err(Error::Conflict { current_version: 2 })),
            "{r:?}"
        );
    }
    assert_eq!(store.load_events(game.id, 0).await.unwrap().len(), 3);
}

async fn join_seat_race_one_winner_per_seat(db: &TestDb) {
    let store = db.connect().await.unwrap();
    let game = game_with_seats(&store, 3).await;
    let mut joiners = Vec::new();
    for i in 0..8 {
        joiners.push(account(&store, &format!("joiner{i}")).await);
    }

    let mut tasks = JoinSet::new();
    for joiner in &joiners {
        let (store, id) = (store.clone(), joiner.id);
        tasks.spawn(async move { (id, store.join_seat(game.id, id).await) });
    }
    let results = tasks.join_all().await;

    let winners: Vec<_> = results.iter().filter(|(_, r)| r.is_ok()).collect();
    let seats: BTreeSet<u32> = winners
        .iter()
        .map(|(_, r)| r.as_ref().unwrap().seat)
        .collect();
    assert_eq!(seats, BTreeSet::from([0, 1, 2]), "{results:?}");
    let full = winners
        .iter()
        .filter(|(_, r)| r.as_ref().unwrap().game_full);
    assert_eq!(full.count(), 1);
    for (_, r) in results.iter().filter(|(_, r)| r.is_err()) {
        assert!(matches!(r, Err(Error::NoOpenSeat(_))), "{r:?}");
    }
    let stored = store.game(game.id).await.unwrap().unwrap();
    assert_eq!(stored.status, GameStatus::Active);
    for (id, r) in &winners {
        let seat = r.as_ref().unwrap().seat;
        assert_eq!(stored.seats[seat as usize], Some(*id));
        // Joining again is answered with the seat already held.
        assert_eq!(store.join_seat(game.id, *id).await.unwrap().seat, seat);
    }
}

async fn accounts_by_token_hash(db: &TestDb) {
    let store = db.connect().await.unwrap();
    let created = store
        .create_account(skit_store::NewAccount {
            name: "Ada".into(),
            kind: AccountKind::Bot,
            token_hash: token_hash("secret-token"),
        })
        .await
        .unwrap();

    let found = store
        .account_by_token_hash(&token_hash("secret-token"))
        .await;
    assert_eq!(found.unwrap(), Some(created.clone()));
    assert_eq!(store.account(created.id).await.unwrap(), Some(created));
    let missing = store.account_by_token_hash(&token_hash("other")).await;
    assert_eq!(missing.unwrap(), None);

    let again = store
        .create_account(skit_store::NewAccount {
            name: "Eve".into(),
            kind: AccountKind::Guest,
            token_hash: token_hash("secret-token"),
        })
        .await;
    assert!(matches!(again, Err(Error::TokenTaken)), "{again:?}");
}

async fn games_listed_and_finished(db: &TestDb) {
    let store = db.connect().await.unwrap();
    let open = game_with_seats(&store, 2).await;
    let player = account(&store, "player").await;
    let full = store
        .create_game(
            crate::helpers::new_game(player.id, vec![Some(player.id)]),
            played(0),
        )
        .await
        .unwrap();

    assert_eq!(store.game(open.id).await.unwrap(), Some(open.clone()));
    assert_eq!(full.status, GameStatus::Active);
    let open_ids: Vec<_> = store
        .open_games(10)
        .await
        .unwrap()
        .iter()
        .map(|g| g.id)
        .collect();
    assert_eq!(open_ids, [open.id]);
    assert_eq!(
        store.games_for_account(player.id, false, 10).await.unwrap(),
        std::slice::from_ref(&full)
    );

    store.finish_game(full.id).await.unwrap();
    let over = store.game(full.id).await.unwrap().unwrap();
    assert_eq!(over.status, GameStatus::Over);
    assert!(over.finished_at.is_some());
    store.finish_game(full.id).await.unwrap();
    let again = store.game(full.id).await.unwrap().unwrap();
    assert_eq!(again.finished_at, over.finished_at);
    assert_eq!(
        store.games_for_account(player.id, false, 10).await.unwrap(),
        []
    );
    assert_eq!(
        store.games_for_account(player.id, true, 10).await.unwrap(),
        [again]
    );
}

/// An account's running game stays listed however many games it finished
/// since, even when those alone would fill the limit.
async fn running_games_not_crowded_out(db: &TestDb) {
    let store = db.connect().await.unwrap();
    let bot = account(&store, "bot").await;
    let seats = || vec![Some(bot.id), Some(bot.id)];
    let running = store
        .create_game(crate::helpers::new_game(bot.id, seats()), played(0))
        .await
        .unwrap();
    for _ in 0..3 {
        let done = store
            .create_game(crate::helpers::new_game(bot.id, seats()), played(0))
            .await
            .unwrap();
        store.finish_game(done.id).await.unwrap();
    }

    let listed = store.games_for_account(bot.id, false, 2).await.unwrap();
    let all = store.games_for_account(bot.id, true, 10).await.unwrap();

    assert_eq!(listed, [running]);
    assert_eq!(all.len(), 4);
}

async fn bad_appends_rejected(db: &TestDb) {
    let store = db.connect().await.unwrap();
    let game = game_with_seats(&store, 2).await;
    let nowhere = skit_store::GameId(uuid_like());

    let unknown = store.append(nowhere, 1, &[played(1)]).await;
    assert!(
        matches!(unknown, Err(Error::GameNotFound(_))),
        "{unknown:?}"
    );
    let empty = store.append(game.id, 1, &[]).await;
    assert!(matches!(empty, Err(Error::Invalid(_))), "{empty:?}");
    let twice = [played(1).with_move_id("m"), played(2).with_move_id("m")];
    let twice = store.append(game.id, 1, &twice).await;
    assert!(matches!(twice, Err(Error::Invalid(_))), "{twice:?}");
    assert_eq!(store.load_events(nowhere, 0).await.unwrap(), []);
    assert_eq!(store.game(nowhere).await.unwrap(), None);
}

async fn subscriber_sees_appends(db: &TestDb) {
    let store = db.connect().await.unwrap();
    let mut notices = store.subscribe();

    let game = game_with_seats(&store, 2).await;
    store
        .append(game.id, 1, &[played(1), played(2)])
        .await
        .unwrap();

    assert_eq!(next(&mut notices).await, Appended::new(game.id, 0));
    assert_eq!(next(&mut notices).await, Appended::new(game.id, 2));
}

/// A second store on the same Postgres database stands for a second service
/// instance: it must hear appends made through the first.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_notices_reach_other_instances() {
    let db = TestDb::postgres().await;
    let writer = db.connect().await.unwrap();
    let reader = db.connect().await.unwrap();
    let mut notices = reader.subscribe();

    let game = game_with_seats(&writer, 2).await;
    writer.append(game.id, 1, &[played(1)]).await.unwrap();
    // Whose turn it is travels with the notice.
    let to_act = ToAct {
        seats: 0b10,
        accounts: Arc::from([AccountId(41)]),
    };
    writer
        .append_to_act(game.id, 2, &[played(2)], Some(&to_act))
        .await
        .unwrap();

    assert_eq!(next(&mut notices).await, Appended::new(game.id, 0));
    // Notices sent close together may be merged: the game's latest wins.
    let mut turn = next(&mut notices).await;
    if turn.seq == 1 {
        assert_eq!(turn, Appended::new(game.id, 1));
        turn = next(&mut notices).await;
    }
    assert_eq!(turn.seq, 2);
    assert_eq!(turn.to_act, Some(to_act.accounts));
    assert!(turn.may_concern(AccountId(41)));
    assert!(!turn.may_concern(AccountId(42)));
}

#[tokio::test]
async fn sqlite_data_survives_reopening() {
    let db = TestDb::sqlite();
    let store = db.connect().await.unwrap();
    let game = game_with_seats(&store, 2).await;
    store
        .append(game.id, 1, &[played(1).with_move_id("m1")])
        .await
        .unwrap();
    let events = store.load_events(game.id, 0).await.unwrap();
    store.close().await;
    drop(store);

    let reopened = db.connect().await.unwrap();
    assert_eq!(reopened.game(game.id).await.unwrap(), Some(game));
    assert_eq!(
        reopened.load_events(events[0].game_id, 0).await.unwrap(),
        events
    );
}

#[tokio::test]
async fn unsupported_url_is_rejected() {
    let err = Store::connect("mysql://localhost/db").await.unwrap_err();
    assert!(matches!(err, Error::UnsupportedUrl), "{err:?}");
}

async fn next(notices: &mut tokio::sync::broadcast::Receiver<Appended>) -> Appended {
    tokio::time::timeout(Duration::from_secs(10), notices.recv())
        .await
        .expect("no notice within 10s")
        .unwrap()
}

fn uuid_like() -> uuid::Uuid {
    uuid::Uuid::from_u128(0x5eed)
}

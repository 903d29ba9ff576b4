//! The turn index: the games where an account may act, read a page at a
//! time, kept by the appends themselves on both backends.

#![allow(clippy::unwrap_used)]

use std::sync::Arc;

use skit_store::on_both_databases;
use skit_store::testing::TestDb;
use skit_store::{AccountId, AppendRequest, GameId, Listing, PageAfter, Store, ToAct};

use crate::helpers::{account, new_game, played};
use serde_json::json;
use skit_store::NewEvent;

on_both_databases!(
    appends_keep_the_turn_index,
    pages_walk_every_game_once,
    an_append_without_a_turn_asks_to_look,
);

fn to_act(seats: u64, accounts: &[AccountId]) -> ToAct {
    ToAct {
        seats,
        accounts: Arc::from(accounts),
    }
}

/// A two-seat game between `a` (seat 0) and `b` (seat 1).
async fn game(store: &Store, a: AccountId, b: AccountId) -> GameId {
    let created = NewEvent::new("created", json!({}));
    let game = store
        .create_game(new_game(a, vec![Some(a), Some(b)]), created)
        .await
        .unwrap();
    game.id
}

async fn may_act(store: &Store, account: AccountId) -> Vec<GameId> {
    let page = store
        .account_games_page(account, Listing::MayAct, None, 100)
        .await
        .unwrap();
    page.into_iter().map(|l| l.game_id).collect()
}

async fn appends_keep_the_turn_index(db: &TestDb) {
    let store = db.connect().await.unwrap();
    let (a, b) = (account(&store, "a").await.id, account(&store, "b").await.id);
    let game = game(&store, a, b).await;

    // Seat 0 to act: the game is a's turn, not b's.
    store
        .append_to_act(game, 1, &[played(1)], Some(&to_act(0b01, &[a])))
        .await
        .unwrap();
    assert_eq!(may_act(&store, a).await, vec![game]);
    assert_eq!(may_act(&store, b).await, Vec::<GameId>::new());

    // A group commit's round moves the turn to seat 1 (two events: the
    // last one's turn counts).
    let round = [AppendRequest {
        game_id: game,
        expected_seq: 2,
        events: vec![played(2), played(3)],
        to_act: Some(to_act(0b10, &[b])),
    }];
    let answers = store.append_batch(&round).await;
    assert!(answers[0].is_ok(), "{answers:?}");
    assert_eq!(may_act(&store, a).await, Vec::<GameId>::new());
    assert_eq!(may_act(&store, b).await, vec![game]);

    // A refused append changes nothing.
    let stale = store
        .append_to_act(game, 2, &[played(9)], Some(&to_act(0b01, &[a])))
        .await;
    assert!(stale.is_err());
    assert_eq!(may_act(&store, b).await, vec![game]);

    // Both may act (a sluff), then nobody: the game's over.
    store
        .append_to_act(game, 4, &[played(4)], Some(&to_act(0b11, &[a, b])))
        .await
        .unwrap();
    assert_eq!(may_act(&store, a).await, vec![game]);
    assert_eq!(may_act(&store, b).await, vec![game]);
    assert!(store.ended_unmarked_games(10).await.unwrap().is_empty());
    store
        .append_to_act(game, 5, &[played(5)], Some(&to_act(0, &[])))
        .await
        .unwrap();
    // Nobody to act and not yet marked over: an ending to finish.
    assert_eq!(store.ended_unmarked_games(10).await.unwrap(), [game]);
    store.finish_game(game).await.unwrap();
    assert!(store.ended_unmarked_games(10).await.unwrap().is_empty());
    assert_eq!(may_act(&store, a).await, Vec::<GameId>::new());
    assert_eq!(may_act(&store, b).await, Vec::<GameId>::new());
}

async fn pages_walk_every_game_once(db: &TestDb) {
    let store = db.connect().await.unwrap();
    let (a, b) = (account(&store, "a").await.id, account(&store, "b").await.id);
    let mut games = Vec::new();
    for i in 0..7u64 {
        let game = game(&store, a, b).await;
        // Every other game is a's turn.
        let (seats, accounts) = if i % 2 == 0 {
            (0b01, vec![a])
        } else {
            (0b10, vec![b])
        };
        store
            .append_to_act(game, 1, &[played(1)], Some(&to_act(seats, &accounts)))
            .await
            .unwrap();
        games.push((game, i % 2 == 0));
    }
    for (listing, expected) in [
        (Listing::All, 7),
        (Listing::Running, 7),
        (Listing::MayAct, 4),
    ] {
        let mut seen = Vec::new();
        let mut after: Option<PageAfter> = None;
        loop {
            let page = store
                .account_games_page(a, listing, after, 3)
                .await
                .unwrap();
            assert!(page.len() <= 3);
            seen.extend(page.iter().map(|l| l.game_id));
            match page.last() {
                Some(last) if page.len() == 3 => after = Some(last.after()),
                _ => break,
            }
        }
        let mut unique = seen.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), seen.len(), "{listing:?}: a game listed twice");
        assert_eq!(seen.len(), expected, "{listing:?}");
        if listing == Listing::MayAct {
            assert!(seen.iter().all(|g| games.contains(&(*g, true))));
        }
    }
}

async fn an_append_without_a_turn_asks_to_look(db: &TestDb) {
    let store = db.connect().await.unwrap();
    let (a, b) = (account(&store, "a").await.id, account(&store, "b").await.id);
    let game = game(&store, a, b).await;
    store
        .append_to_act(game, 1, &[played(1)], Some(&to_act(0b10, &[b])))
        .await
        .unwrap();
    assert_eq!(may_act(&store, a).await, Vec::<GameId>::new());
    // An append that does not say whose turn it is: the index no longer
    // knows, so the game is a candidate for everyone seated.
    store.append(game, 2, &[played(2)]).await.unwrap();
    assert_eq!(may_act(&store, a).await, vec![game]);
    assert_eq!(may_act(&store, b).await, vec![game]);
}

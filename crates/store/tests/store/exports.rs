//! Finished games for export: a page at a time, each game once, in the
//! order they were marked over; filtered by time, tournament and account;
//! never a game still running or voided.

#![allow(clippy::unwrap_used)]

use serde_json::json;
use skit_store::on_both_databases;
use skit_store::testing::TestDb;
use skit_store::{
    AccountId, AccountKind, ExportFilter, FinishedAfter, GameId, NewAccount, NewAudit, NewEvent,
    Store, token_hash,
};

use crate::helpers::{account, new_game};

on_both_databases!(
    pages_hold_every_finished_game_once_in_order,
    filters_pick_games_by_time_tournament_and_account,
);

const TOURNAMENT: &str = "0b7e4c56-3f1a-4d8e-9a51-6f2c1d0e9b3a";

/// A game between `a` and `b` created by `creator` under `request_id`.
async fn game(
    store: &Store,
    creator: AccountId,
    seats: [AccountId; 2],
    request_id: Option<String>,
) -> GameId {
    let mut new = new_game(creator, seats.map(Some).to_vec());
    new.request_id = request_id;
    let created = NewEvent::new("created", json!({}));
    store.create_game(new, created).await.unwrap().id
}

async fn operator(store: &Store) -> AccountId {
    let created = store
        .create_account(NewAccount {
            name: "operator".into(),
            kind: AccountKind::Operator,
            token_hash: token_hash("operator-token-for-export-tests"),
        })
        .await
        .unwrap();
    created.id
}

/// Every game `filter` lets through, `limit` at a time.
async fn all_pages(store: &Store, filter: &ExportFilter, limit: u32) -> Vec<GameId> {
    let mut games = Vec::new();
    let mut after: Option<FinishedAfter> = None;
    loop {
        let page = store
            .finished_games_page(filter, after, limit)
            .await
            .unwrap();
        assert!(page.len() <= limit as usize);
        games.extend(page.iter().map(|f| f.game_id));
        match page.last() {
            Some(last) if page.len() == limit as usize => after = Some(last.after()),
            _ => return games,
        }
    }
}

async fn pages_hold_every_finished_game_once_in_order(db: &TestDb) {
    let store = db.connect().await.unwrap();
    let (a, b) = (account(&store, "a").await.id, account(&store, "b").await.id);
    let mut finished = Vec::new();
    for _ in 0..5 {
        let id = game(&store, a, [a, b], None).await;
        store.finish_game(id).await.unwrap();
        finished.push(id);
    }
    let running = game(&store, a, [a, b], None).await;
    let voided = game(&store, a, [a, b], None).await;
    let audit = NewAudit {
        operator: operator(&store).await,
        action: "void_game",
        target_account: None,
        target_game: Some(voided),
        reason: String::new(),
        details: json!({}),
    };
    store.void_game(voided, &audit).await.unwrap();
    store.finish_game(voided).await.unwrap();

    for limit in [1, 2, 5, 100] {
        let games = all_pages(&store, &ExportFilter::default(), limit).await;
        assert_eq!(games, finished, "pages of {limit}");
        assert!(!games.contains(&running) && !games.contains(&voided));
    }
}

async fn filters_pick_games_by_time_tournament_and_account(db: &TestDb) {
    let store = db.connect().await.unwrap();
    let (a, b, c) = (
        account(&store, "a").await.id,
        account(&store, "b").await.id,
        account(&store, "c").await.id,
    );
    let operator = operator(&store).await;
    let table = |n: u32| Some(format!("tournament/{TOURNAMENT}/1/{n}"));
    let early = game(&store, a, [a, b], None).await;
    store.finish_game(early).await.unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    let between = time::OffsetDateTime::now_utc();
    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    let first_table = game(&store, operator, [a, c], table(1)).await;
    store.finish_game(first_table).await.unwrap();
    let second_table = game(&store, operator, [b, c], table(2)).await;
    store.finish_game(second_table).await.unwrap();
    // A player cannot put a game of theirs into the tournament.
    let posing = game(&store, b, [b, c], table(3)).await;
    store.finish_game(posing).await.unwrap();
    let running_table = game(&store, operator, [a, b], table(4)).await;

    let everything = all_pages(&store, &ExportFilter::default(), 10).await;
    assert_eq!(everything, [early, first_table, second_table, posing]);

    let later = ExportFilter {
        finished_from: Some(between),
        ..Default::default()
    };
    let earlier = ExportFilter {
        finished_before: Some(between),
        ..Default::default()
    };
    assert_eq!(
        all_pages(&store, &later, 10).await,
        [first_table, second_table, posing]
    );
    assert_eq!(all_pages(&store, &earlier, 10).await, [early]);

    let tournament = ExportFilter {
        tournament_id: Some(TOURNAMENT.into()),
        ..Default::default()
    };
    let page = store
        .finished_games_page(&tournament, None, 10)
        .await
        .unwrap();
    let ids: Vec<GameId> = page.iter().map(|f| f.game_id).collect();
    assert_eq!(ids, [first_table, second_table]);
    assert!(
        page.iter()
            .all(|f| f.tournament_id.as_deref() == Some(TOURNAMENT))
    );
    assert!(!ids.contains(&running_table));
    let all = store
        .finished_games_page(&ExportFilter::default(), None, 10)
        .await
        .unwrap();
    let posing = all.iter().find(|f| f.game_id == posing).unwrap();
    assert_eq!(posing.tournament_id, None);

    let of_a = ExportFilter {
        account: Some(a),
        ..Default::default()
    };
    assert_eq!(all_pages(&store, &of_a, 1).await, [early, first_table]);
    let of_c_in_tournament = ExportFilter {
        account: Some(c),
        tournament_id: Some(TOURNAMENT.into()),
        ..Default::default()
    };
    assert_eq!(
        all_pages(&store, &of_c_in_tournament, 10).await,
        [first_table, second_table]
    );
}

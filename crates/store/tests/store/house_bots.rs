//! House bots: only a bot account can be marked, the mark is kept, and the
//! listing the matchmaker reads holds the marked bots and nothing else.

#![allow(clippy::unwrap_used)]

use skit_store::on_both_databases;
use skit_store::testing::TestDb;
use skit_store::{Account, AccountId, AccountKind, NewAccount, Store, token_hash};

use crate::helpers::account;

on_both_databases!(only_marked_bots_are_house_bots, only_bots_can_be_marked);

async fn bot(store: &Store, name: &str) -> Account {
    store
        .create_account(NewAccount {
            name: name.into(),
            kind: AccountKind::Bot,
            token_hash: token_hash(&uuid::Uuid::new_v4().to_string()),
        })
        .await
        .unwrap()
}

async fn only_marked_bots_are_house_bots(db: &TestDb) {
    let store = db.connect().await.unwrap();
    let house = [bot(&store, "house-1").await, bot(&store, "house-2").await];
    let third_party = bot(&store, "their-bot").await;
    assert!(!third_party.house_bot, "no bot is a house bot until marked");

    for b in &house {
        let marked = store.set_house_bot(b.id, true).await.unwrap().unwrap();
        assert!(marked.house_bot);
        assert_eq!(marked.id, b.id);
    }
    let unmarked = bot(&store, "was-house").await;
    store.set_house_bot(unmarked.id, true).await.unwrap();
    store.set_house_bot(unmarked.id, false).await.unwrap();

    let listed: Vec<AccountId> = store
        .house_bots(100)
        .await
        .unwrap()
        .iter()
        .map(|a| a.id)
        .collect();
    assert_eq!(
        listed,
        [house[0].id, house[1].id],
        "oldest first, marked only"
    );
    assert_eq!(store.house_bots(1).await.unwrap().len(), 1, "the limit");
    let reread = store.account(house[0].id).await.unwrap().unwrap();
    assert!(reread.house_bot, "the mark is kept");
    let all_bots = store.accounts(Some(AccountKind::Bot), 100).await.unwrap();
    assert_eq!(all_bots.len(), 4, "every bot is still a bot account");
}

async fn only_bots_can_be_marked(db: &TestDb) {
    let store = db.connect().await.unwrap();
    let player = account(&store, "player").await;

    let refused = store.set_house_bot(player.id, true).await.unwrap();
    let missing = store.set_house_bot(AccountId(987_654), true).await.unwrap();

    assert_eq!(refused, None, "a player account is not a bot");
    assert_eq!(missing, None, "no such account");
    assert!(store.house_bots(100).await.unwrap().is_empty());
    assert!(!store.account(player.id).await.unwrap().unwrap().house_bot);
}

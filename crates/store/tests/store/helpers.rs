//! Small builders the store's tests share.

#![allow(clippy::unwrap_used)]

use serde_json::json;
use skit_store::{
    Account, AccountId, AccountKind, Game, NewAccount, NewEvent, NewGame, Seed, Store, token_hash,
};

pub async fn account(store: &Store, name: &str) -> Account {
    store
        .create_account(NewAccount {
            name: name.into(),
            kind: AccountKind::Player,
            token_hash: token_hash(&uuid::Uuid::new_v4().to_string()),
        })
        .await
        .unwrap()
}

pub fn new_game(created_by: AccountId, seats: Vec<Option<AccountId>>) -> NewGame {
    NewGame {
        ruleset: json!({ "players": seats.len() }),
        ruleset_key: "classic".into(),
        created_by,
        seats,
        seed: Seed::new("00ff"),
        commitment: "ab12".into(),
        rated: true,
        request_id: None,
        to_act: None,
    }
}

/// An open game with `seats` empty seats and its creation event.
pub async fn game_with_seats(store: &Store, seats: usize) -> Game {
    let creator = account(store, "creator").await;
    let created = NewEvent::new("created", json!({ "seats": seats }));
    let game = store
        .create_game(new_game(creator.id, vec![None; seats]), created)
        .await
        .unwrap();
    assert_eq!(game.status, skit_store::GameStatus::Open);
    game
}

pub fn played(card: u32) -> NewEvent {
    NewEvent::new("played", json!({ "card": card }))
}

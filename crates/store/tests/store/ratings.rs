//! The store's rating contract, on both backends: a game's update is
//! applied once and atomically, ratings and history read back what was
//! written, and leaderboards sort by conservative rating.

#![allow(clippy::unwrap_used)]

use serde_json::json;
use skit_store::on_both_databases;
use skit_store::testing::TestDb;
use skit_store::{AccountId, Game, NewEvent, Placed, Rating, Skill, Store};
use tokio::task::JoinSet;

use crate::helpers::{account, new_game};

on_both_databases!(
    update_is_stored_and_read_back,
    second_application_changes_nothing,
    concurrent_applications_apply_once,
    games_sharing_a_player_both_count,
    leaderboard_sorts_by_conservative_rating,
    unrated_finished_games_are_found,
);

const KEY: &str = "skitgubbe";
const START: Skill = Skill {
    mu: 25.0,
    sigma: 25.0 / 3.0,
};

/// A toy model: first place gains `gain` per player below it, everyone's
/// sigma shrinks by one.
fn model(places: &[u32], gain: f64) -> impl Fn(&[Rating]) -> Vec<Skill> + Send + Sync + use<> {
    let places = places.to_vec();
    move |before: &[Rating]| {
        let worst = f64::from(*places.iter().max().unwrap());
        before
            .iter()
            .zip(&places)
            .map(|(r, &p)| Skill {
                mu: r.skill.mu + gain * (worst - f64::from(p)) - gain / 2.0,
                sigma: r.skill.sigma - 1.0,
            })
            .collect()
    }
}

/// A finished game with the accounts seated.
async fn finished_game(store: &Store, seats: &[AccountId]) -> Game {
    let game = store
        .create_game(
            new_game(seats[0], seats.iter().copied().map(Some).collect()),
            NewEvent::new("created", json!({})),
        )
        .await
        .unwrap();
    store.finish_game(game.id).await.unwrap();
    game
}

fn placed(accounts: &[AccountId], places: &[u32]) -> Vec<Placed> {
    accounts
        .iter()
        .zip(places)
        .map(|(&account_id, &place)| Placed { account_id, place })
        .collect()
}

async fn two_players(store: &Store) -> [AccountId; 2] {
    [
        account(store, "ann").await.id,
        account(store, "bo").await.id,
    ]
}

async fn update_is_stored_and_read_back(db: &TestDb) {
    let store = db.connect().await.unwrap();
    let [ann, bo] = two_players(&store).await;
    let game = finished_game(&store, &[ann, bo]).await;
    assert_eq!(store.rating(ann, KEY).await.unwrap(), None);

    // Bo (second in the list) wins.
    let places = [2, 1];
    let changes = store
        .apply_ratings(
            game.id,
            KEY,
            &placed(&[ann, bo], &places),
            START,
            model(&places, 2.0),
        )
        .await
        .unwrap()
        .unwrap();

    assert_eq!(changes.len(), 2);
    let ann_now = store.rating(ann, KEY).await.unwrap().unwrap();
    let bo_now = store.rating(bo, KEY).await.unwrap().unwrap();
    assert_eq!((ann_now.skill.mu, ann_now.games), (24.0, 1));
    assert_eq!((bo_now.skill.mu, bo_now.games), (26.0, 1));
    assert_eq!(bo_now.skill.sigma, START.sigma - 1.0);
    assert_eq!(store.ratings_of(bo).await.unwrap(), [bo_now]);
    assert_eq!(store.rating(bo, "mas").await.unwrap(), None);
    let history = store.rating_history(bo, None, 10).await.unwrap();
    assert_eq!(history.len(), 1);
    assert_eq!(history[0].game_id, game.id);
    assert_eq!((history[0].place, history[0].games_after), (1, 1));
    assert_eq!(history[0].before, START);
    assert_eq!(history[0].after.mu, 26.0);
    assert!(store.game_rated(game.id).await.unwrap());
    assert!(
        store
            .rating_history(bo, Some("mas"), 10)
            .await
            .unwrap()
            .is_empty()
    );
}

async fn second_application_changes_nothing(db: &TestDb) {
    let store = db.connect().await.unwrap();
    let [ann, bo] = two_players(&store).await;
    let game = finished_game(&store, &[ann, bo]).await;
    let places = [1, 2];
    let seats = placed(&[ann, bo], &places);
    store
        .apply_ratings(game.id, KEY, &seats, START, model(&places, 2.0))
        .await
        .unwrap();
    let after_first = store.rating(ann, KEY).await.unwrap();

    let again = store
        .apply_ratings(game.id, KEY, &seats, START, model(&places, 2.0))
        .await
        .unwrap();

    assert_eq!(again, None);
    assert_eq!(store.rating(ann, KEY).await.unwrap(), after_first);
    assert_eq!(store.rating_history(ann, None, 10).await.unwrap().len(), 1);
}

/// Two instances (two stores on one database) racing on one game.
async fn concurrent_applications_apply_once(db: &TestDb) {
    let first = db.connect().await.unwrap();
    let [ann, bo] = two_players(&first).await;
    let game = finished_game(&first, &[ann, bo]).await;
    let mut tasks = JoinSet::new();
    for i in 0..6 {
        let store = match i % 2 {
            0 => first.clone(),
            _ => db.connect().await.unwrap(),
        };
        tasks.spawn(async move {
            let places = [1, 2];
            store
                .apply_ratings(
                    game.id,
                    KEY,
                    &placed(&[ann, bo], &places),
                    START,
                    model(&places, 2.0),
                )
                .await
        });
    }

    let results = tasks.join_all().await;

    let applied = results.iter().filter(|r| matches!(r, Ok(Some(_)))).count();
    assert_eq!(applied, 1, "{results:?}");
    assert!(results.iter().all(|r| r.is_ok()), "{results:?}");
    let ann_now = first.rating(ann, KEY).await.unwrap().unwrap();
    assert_eq!((ann_now.skill.mu, ann_now.games), (26.0, 1));
}

/// Two games with a player in common, rated at once, both count: neither
/// update starts from a rating the other is replacing.
async fn games_sharing_a_player_both_count(db: &TestDb) {
    let store = db.connect().await.unwrap();
    let [ann, bo] = two_players(&store).await;
    let cy = account(&store, "cy").await.id;
    let one = finished_game(&store, &[ann, bo]).await;
    let two = finished_game(&store, &[ann, cy]).await;
    let other = db.connect().await.unwrap();

    let places = [1, 2];
    let (seats_one, seats_two) = (placed(&[ann, bo], &places), placed(&[ann, cy], &places));
    let (a, b) = tokio::join!(
        store.apply_ratings(one.id, KEY, &seats_one, START, model(&places, 2.0)),
        other.apply_ratings(two.id, KEY, &seats_two, START, model(&places, 2.0)),
    );

    assert!(a.unwrap().is_some());
    assert!(b.unwrap().is_some());
    let ann_now = store.rating(ann, KEY).await.unwrap().unwrap();
    assert_eq!((ann_now.skill.mu, ann_now.games), (27.0, 2));
    let history = store.rating_history(ann, Some(KEY), 10).await.unwrap();
    let games: Vec<u32> = history.iter().map(|c| c.games_after).collect();
    assert_eq!(games, [2, 1], "newest first");
    assert_eq!(history[0].before, history[1].after);
}

async fn leaderboard_sorts_by_conservative_rating(db: &TestDb) {
    let store = db.connect().await.unwrap();
    let [ann, bo] = two_players(&store).await;
    let cy = account(&store, "cy").await.id;
    let game = finished_game(&store, &[ann, bo, cy]).await;
    let places = [2, 1, 3];
    store
        .apply_ratings(
            game.id,
            KEY,
            &placed(&[ann, bo, cy], &places),
            START,
            model(&places, 2.0),
        )
        .await
        .unwrap();

    let board = store.leaderboard(KEY, 0, 10).await.unwrap();

    let names: Vec<&str> = board.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["bo", "ann", "cy"]);
    assert_eq!(store.leaderboard(KEY, 0, 2).await.unwrap().len(), 2);
    assert!(store.leaderboard(KEY, 2, 10).await.unwrap().is_empty());
    assert!(store.leaderboard("mas", 0, 10).await.unwrap().is_empty());
}

async fn unrated_finished_games_are_found(db: &TestDb) {
    let store = db.connect().await.unwrap();
    let [ann, bo] = two_players(&store).await;
    let rated = finished_game(&store, &[ann, bo]).await;
    let pending = finished_game(&store, &[bo, ann]).await;
    let _solo = finished_game(&store, &[ann, ann]).await;
    let _running = store
        .create_game(
            new_game(ann, vec![Some(ann), Some(bo)]),
            NewEvent::new("created", json!({})),
        )
        .await
        .unwrap();
    let places = [1, 2];
    store
        .apply_ratings(
            rated.id,
            KEY,
            &placed(&[ann, bo], &places),
            START,
            model(&places, 2.0),
        )
        .await
        .unwrap();

    let unrated = store.unrated_finished_games(10).await.unwrap();

    assert_eq!(unrated, [pending.id]);
    assert!(!store.game_rated(pending.id).await.unwrap());
}

//! The store's divisions contract, on both backends: a period's places are
//! written once and read back with each player's period and lifetime
//! ratings; a player enters once; stepping down is kept; the ratings a
//! season seeds from are each player's as they stood at a moment.

#![allow(clippy::unwrap_used)]

use std::time::Duration;

use serde_json::json;
use skit_store::on_both_databases;
use skit_store::testing::TestDb;
use skit_store::{
    AccountId, Arrival, CreatedSeason, DivisionPlace, DivisionRules, NewEvent, NewSeason, Placed,
    Rating, Season, SeasonTrack, Skill, Store,
};
use time::OffsetDateTime;

use crate::helpers::{account, new_game};

on_both_databases!(
    a_period_is_turned_once_and_read_back,
    ratings_as_of_a_moment_are_each_players_latest_before_it,
);

const KEY: &str = "skitgubbe";
const START: Skill = Skill {
    mu: 25.0,
    sigma: 25.0 / 3.0,
};

async fn season(store: &Store) -> Season {
    let new = NewSeason {
        name: "Daily".into(),
        ruleset_key: KEY.into(),
        starts_at: OffsetDateTime::from_unix_timestamp(1_700_000_000).unwrap(),
        ends_at: None,
        recurrence: "0 0 * * *".into(),
        time_zone: "UTC".into(),
        divisions: Some(DivisionRules {
            tiers: 2,
            cohort_size: 2,
            promote_percent: 50,
            relegate_percent: 50,
            min_games: 1,
        }),
        created_by: AccountId(1),
        request_id: None,
    };
    match store.create_season(new).await.unwrap() {
        CreatedSeason::New(s) => s,
        CreatedSeason::Requested(s) => panic!("a new season was expected: {s:?}"),
    }
}

fn place(account_id: AccountId, tier: u32, cohort: u32) -> DivisionPlace {
    DivisionPlace {
        account_id,
        tier,
        cohort,
        arrival: Arrival::Seeded,
        stepping_down: false,
    }
}

/// Rates a game of `order` (first to last): the winner gains 2, the rest
/// lose 1; into `tracks` too.
async fn rate(store: &Store, order: &[AccountId], tracks: &[SeasonTrack]) {
    let game = store
        .create_game(
            new_game(order[0], order.iter().copied().map(Some).collect()),
            NewEvent::new("created", json!({})),
        )
        .await
        .unwrap();
    store.finish_game(game.id).await.unwrap();
    let placed: Vec<Placed> = (1u32..)
        .zip(order)
        .map(|(place, &account_id)| Placed { account_id, place })
        .collect();
    let model = |before: &[Rating]| {
        (0..before.len())
            .zip(before)
            .map(|(i, r)| Skill {
                mu: r.skill.mu + if i == 0 { 2.0 } else { -1.0 },
                sigma: r.skill.sigma - 1.0,
            })
            .collect()
    };
    let reset = |s: Skill| s;
    store
        .apply_ratings_in_seasons(game.id, KEY, &placed, START, tracks, &reset, model)
        .await
        .unwrap()
        .unwrap();
}

async fn a_period_is_turned_once_and_read_back(db: &TestDb) {
    let store = db.connect().await.unwrap();
    let season = season(&store).await;
    assert_eq!(season.divisions.map(|d| d.tiers), Some(2));
    assert_eq!(
        store.season(&season.id).await.unwrap(),
        Some(season.clone())
    );
    let [ann, bo, cy, di] = [
        account(&store, "ann").await.id,
        account(&store, "bo").await.id,
        account(&store, "cy").await.id,
        account(&store, "di").await.id,
    ];
    let track = SeasonTrack {
        season_id: season.id.clone(),
        period_start: season.starts_at,
    };
    assert!(!store.division_turned(&track).await.unwrap());
    let places = [place(ann, 1, 1), place(bo, 2, 1), place(cy, 2, 1)];
    assert!(store.write_division_turn(&track, &places).await.unwrap());
    assert!(store.division_turned(&track).await.unwrap());
    // A second turn of the same period writes nothing.
    assert!(
        !store
            .write_division_turn(&track, &[place(di, 1, 1)])
            .await
            .unwrap()
    );
    assert_eq!(store.division_place(&track, di).await.unwrap(), None);

    // A game in the period: its players' ratings come with their places.
    rate(&store, &[bo, ann], std::slice::from_ref(&track)).await;
    let members = store.division_members(&track).await.unwrap();
    let ids: Vec<AccountId> = members.iter().map(|m| m.place.account_id).collect();
    assert_eq!(ids, [ann, bo, cy]);
    assert_eq!(members[1].name, "bo");
    assert_eq!(
        members[1].season.as_ref().map(|s| (s.games, s.skill.mu)),
        Some((1, 27.0))
    );
    assert_eq!(members[1].lifetime.map(|s| s.mu), Some(27.0));
    assert_eq!(
        (members[2].season.as_ref(), members[2].lifetime),
        (None, None)
    );

    // Entering: once.
    let entered = DivisionPlace {
        arrival: Arrival::Entered,
        ..place(di, 2, 2)
    };
    assert!(store.enter_division(&track, &entered).await.unwrap());
    assert!(
        !store
            .enter_division(&track, &place(di, 1, 1))
            .await
            .unwrap()
    );
    assert_eq!(
        store.division_place(&track, di).await.unwrap(),
        Some(entered)
    );
    assert_eq!(
        store.cohort_sizes(&track, 2).await.unwrap(),
        [(1, 2), (2, 1)]
    );
    assert_eq!(
        store.division_sizes(&track).await.unwrap(),
        [(1, 1, 1), (2, 1, 2), (2, 2, 1)]
    );
    let cohort = store.division_cohort(&track, 2, 1).await.unwrap();
    assert_eq!(cohort.len(), 2);

    // Stepping down is kept, and taken back; nobody else's changes.
    assert!(store.set_stepping_down(&track, ann, true).await.unwrap());
    let ann_place = store.division_place(&track, ann).await.unwrap().unwrap();
    assert!(ann_place.stepping_down);
    assert!(store.set_stepping_down(&track, ann, false).await.unwrap());
    assert!(
        !store
            .division_place(&track, ann)
            .await
            .unwrap()
            .unwrap()
            .stepping_down
    );
    let other = AccountId(999_999);
    assert!(!store.set_stepping_down(&track, other, true).await.unwrap());

    // Players rated in the period without a place.
    let elsewhere = SeasonTrack {
        period_start: season.starts_at + time::Duration::days(1),
        ..track.clone()
    };
    rate(&store, &[cy, di], std::slice::from_ref(&elsewhere)).await;
    assert_eq!(store.division_unplaced(&elsewhere).await.unwrap(), [cy, di]);
    assert!(store.division_unplaced(&track).await.unwrap().is_empty());
}

async fn ratings_as_of_a_moment_are_each_players_latest_before_it(db: &TestDb) {
    let store = db.connect().await.unwrap();
    let [ann, bo, cy] = [
        account(&store, "ann").await.id,
        account(&store, "bo").await.id,
        account(&store, "cy").await.id,
    ];
    let before_all = OffsetDateTime::now_utc() - time::Duration::seconds(1);
    rate(&store, &[cy, bo], &[]).await;
    tokio::time::sleep(Duration::from_millis(20)).await;
    let after_first = OffsetDateTime::now_utc();
    tokio::time::sleep(Duration::from_millis(20)).await;
    rate(&store, &[ann, bo], &[]).await;
    tokio::time::sleep(Duration::from_millis(20)).await;
    let after_both = OffsetDateTime::now_utc();

    // After the first game only: cy (27) ahead of bo (24); ann unrated.
    let first = store
        .ratings_as_of(KEY, before_all, after_first)
        .await
        .unwrap();
    let ids: Vec<AccountId> = first.iter().map(|(id, _)| *id).collect();
    assert_eq!(ids, [cy, bo]);
    assert_eq!(first[1].1.mu, 24.0);
    // After both: bo's rating is the second game's (23), and the best
    // first.
    let both = store
        .ratings_as_of(KEY, before_all, after_both)
        .await
        .unwrap();
    let ids: Vec<AccountId> = both.iter().map(|(id, _)| *id).collect();
    assert_eq!(ids, [ann, cy, bo]);
    assert_eq!(both[2].1.mu, 23.0);
    // Only players whose rating last changed since `after_first`: cy's
    // last change came before it.
    let recent = store
        .ratings_as_of(KEY, after_first, after_both)
        .await
        .unwrap();
    let ids: Vec<AccountId> = recent.iter().map(|(id, _)| *id).collect();
    assert_eq!(ids, [ann, bo]);
    assert!(
        store
            .ratings_as_of("mas", before_all, after_both)
            .await
            .unwrap()
            .is_empty()
    );
}

//! Arena seating from the pool of players who finished.

use proptest::prelude::*;
use skit_league::{
    ArenaParams, ArenaSeating, Constraints, History, PlayerId, Seed, Table, Waiting, arena,
    table_sizes,
};

use crate::field;

const PARAMS: ArenaParams = ArenaParams {
    seats: 3,
    rematch_penalty: 8_000_000,
    passes: 20,
};

fn pool(n: usize) -> Vec<Waiting> {
    field(n)
        .into_iter()
        .enumerate()
        .map(|(i, player)| Waiting {
            player,
            rank: i as u32 + 1,
            rating: 1500 - 10 * i as i64,
        })
        .collect()
}

fn seat(
    pool: &[Waiting],
    params: ArenaParams,
    history: &History,
    constraints: &Constraints,
) -> ArenaSeating {
    arena(pool, params, history, constraints, Seed(5), 1)
}

fn ids(table: &Table) -> Vec<u64> {
    let mut ids: Vec<u64> = table.seats.iter().map(|p| p.0).collect();
    ids.sort();
    ids
}

#[test]
fn players_are_seated_with_their_neighbours_in_rank() {
    let seated = seat(&pool(9), PARAMS, &History::new(), &Constraints::default());
    let tables: Vec<Vec<u64>> = seated.tables.iter().map(ids).collect();
    assert_eq!(tables, [vec![1, 2, 3], vec![4, 5, 6], vec![7, 8, 9]]);
    assert!(seated.waiting.is_empty());
}

#[test]
fn the_rematch_penalty_splits_a_table_that_just_played() {
    // Given 1, 2 and 3 just finished a table together
    let mut history = History::new();
    history.record(&Table::new(vec![PlayerId(1), PlayerId(2), PlayerId(3)]));
    // When they and 4..9 are seated
    let seated = seat(&pool(9), PARAMS, &history, &Constraints::default());
    // Then no two of 1, 2, 3 share a table, since another seating exists
    for t in &seated.tables {
        let again = ids(t).iter().filter(|&&p| p <= 3).count();
        assert!(again <= 1, "{:?}", seated.tables);
    }
    // And without the penalty they would sit together again
    let free = ArenaParams {
        rematch_penalty: 0,
        ..PARAMS
    };
    let seated = seat(&pool(9), free, &history, &Constraints::default());
    assert_eq!(ids(&seated.tables[0]), [1, 2, 3]);
}

#[test]
fn the_latest_arrivals_wait_when_the_pool_does_not_split() {
    // 4 at 3 seats split as 2 + 2? No: 3-seat tables take 2 or 3, so 4
    // sit as two pairs; 1 at 3 seats waits alone.
    let seated = seat(&pool(4), PARAMS, &History::new(), &Constraints::default());
    assert_eq!(seated.tables.len(), 2);
    let seated = seat(&pool(1), PARAMS, &History::new(), &Constraints::default());
    assert!(seated.tables.is_empty());
    assert_eq!(seated.waiting, [PlayerId(1)]);
    // 7 at 6 seats: 6 sit, the last to arrive waits.
    let six = ArenaParams { seats: 6, ..PARAMS };
    let seated = seat(&pool(7), six, &History::new(), &Constraints::default());
    assert_eq!(seated.waiting, [PlayerId(7)]);
}

proptest! {
    #[test]
    fn every_table_is_k_or_k_minus_1_and_kept_apart_pairs_never_sit_together(
        n in 0usize..30, k in 2usize..=6, seed: u64,
    ) {
        let params = ArenaParams { seats: k, ..PARAMS };
        let history = crate::random_history(&field(30), 3, 2, seed);
        let constraints = Constraints { together: vec![], apart: vec![(PlayerId(1), PlayerId(2)), (PlayerId(3), PlayerId(4))] };
        let pool = pool(n);
        let seated = seat(&pool, params, &history, &constraints);
        prop_assert_eq!(&seated, &seat(&pool, params, &history, &constraints), "deterministic");
        let mut all: Vec<PlayerId> = seated.tables.iter().flat_map(|t| t.seats.clone()).chain(seated.waiting.clone()).collect();
        all.sort();
        prop_assert_eq!(all, field(n));
        for t in &seated.tables {
            prop_assert!(t.len() == k || (t.len() == k - 1 && k > 2));
            prop_assert!(!(t.contains(PlayerId(1)) && t.contains(PlayerId(2))));
            prop_assert!(!(t.contains(PlayerId(3)) && t.contains(PlayerId(4))));
        }
        // Everyone who could sit did, unless a kept-apart pair sent a table back.
        let fits = (0..=n).rev().find(|&m| table_sizes(m, k).is_ok()).unwrap_or(0);
        prop_assert!(seated.waiting.len() == n - fits || seated.waiting.len() >= n - fits + k - 1);
    }
}

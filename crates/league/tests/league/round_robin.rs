//! Round-robin schedules: nobody meets twice, positions balanced exactly
//! where tables are all one size, the built-in designs used where they
//! exist.

use proptest::prelude::*;
use skit_league::{
    PairingError, PlayerId, RoundRobinRequest, Schedule, ScheduleSource, Seed, Table, round_robin,
    table_sizes,
};

use crate::{field, seats_everyone_once};

fn schedule(
    players: &[PlayerId],
    seats: usize,
    rounds: usize,
    apart: &[(PlayerId, PlayerId)],
    seed: u64,
) -> Result<Schedule, PairingError> {
    round_robin(RoundRobinRequest {
        players,
        seats,
        rounds,
        apart,
        seed: Seed(seed),
        budget: 20_000,
        attempts: 30,
    })
}

fn pair_counts(schedule: &Schedule) -> std::collections::BTreeMap<(PlayerId, PlayerId), u32> {
    let mut met = std::collections::BTreeMap::new();
    for t in schedule.rounds.iter().flatten() {
        for &a in &t.seats {
            for &b in &t.seats {
                if a < b {
                    *met.entry((a, b)).or_insert(0) += 1;
                }
            }
        }
    }
    met
}

/// Each player's count at each position, max - min, over the schedule.
fn position_spread(players: &[PlayerId], schedule: &Schedule, seats: usize) -> u32 {
    players
        .iter()
        .map(|&p| {
            let mut counts = vec![0u32; seats];
            for t in schedule.rounds.iter().flatten() {
                if let Some(i) = t.position(p) {
                    counts[i] += 1;
                }
            }
            counts.iter().max().unwrap_or(&0) - counts.iter().min().unwrap_or(&0)
        })
        .max()
        .unwrap_or(0)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(120))]

    #[test]
    fn nobody_meets_twice_and_positions_balance_within_one(
        k in 2usize..=6, n in 2usize..=30, rounds in 1usize..=6, seed: u64,
    ) {
        let players = field(n);
        prop_assume!(table_sizes(n, k).is_ok());
        match schedule(&players, k, rounds, &[], seed) {
            Ok(s) => {
                prop_assert_eq!(s.rounds.len(), rounds);
                for round in &s.rounds {
                    prop_assert!(seats_everyone_once(&players, round));
                }
                prop_assert!(pair_counts(&s).values().all(|&c| c == 1));
                let sizes = table_sizes(n, k).expect("splits");
                if sizes.iter().all(|&x| x == sizes[0]) {
                    prop_assert!(position_spread(&players, &s, sizes[0]) <= 1);
                }
                prop_assert_eq!(Ok(s), schedule(&players, k, rounds, &[], seed), "deterministic");
            }
            Err(PairingError::TooManyRounds { most, .. }) => prop_assert!(rounds > most),
            Err(PairingError::NoSchedule { .. }) => {}
            Err(other) => prop_assert!(false, "{other}"),
        }
    }
}

#[test]
fn nine_players_at_three_seats_get_the_affine_plane_every_pair_once() {
    let players = field(9);
    let s = schedule(&players, 3, 4, &[], 1).expect("4 rounds");
    assert_eq!(s.source, ScheduleSource::AffinePlane);
    let met = pair_counts(&s);
    assert_eq!(met.len(), 36, "all 36 pairs met");
    assert!(met.values().all(|&c| c == 1));
    // Four games at three positions: each player two at one, one at the others.
    assert_eq!(position_spread(&players, &s, 3), 1);
    let error = schedule(&players, 3, 5, &[], 1).expect_err("a fifth round repeats");
    assert_eq!(
        error,
        PairingError::TooManyRounds {
            players: 9,
            seats: 3,
            most: 4
        }
    );
}

#[test]
fn sixteen_at_four_seats_and_two_seat_fields_use_their_designs() {
    let s = schedule(&field(16), 4, 5, &[], 2).expect("5 rounds");
    assert_eq!(s.source, ScheduleSource::AffinePlane);
    assert_eq!(pair_counts(&s).len(), 120);
    let s = schedule(&field(8), 2, 7, &[], 2).expect("7 rounds");
    assert_eq!(s.source, ScheduleSource::Circle);
    assert_eq!(pair_counts(&s).len(), 28);
    assert_eq!(position_spread(&field(8), &s, 2), 1);
}

#[test]
fn a_forbidden_pair_never_meets() {
    // 16 at 4 seats for 5 rounds would meet every pair: with 1 and 2 kept
    // apart, 4 rounds are searched instead of taken from the plane.
    let players = field(16);
    let apart = [(PlayerId(1), PlayerId(2))];
    let error = schedule(&players, 4, 5, &apart, 3).expect_err("5 rounds would meet every pair");
    assert!(matches!(error, PairingError::NoSchedule { .. }), "{error}");
    let s = schedule(&players, 4, 4, &apart, 3).expect("4 rounds");
    let together = |t: &Table| t.contains(PlayerId(1)) && t.contains(PlayerId(2));
    assert!(!s.rounds.iter().flatten().any(together));
    assert!(pair_counts(&s).values().all(|&c| c == 1));
}

#[test]
fn fields_without_a_design_are_searched() {
    // 12 at 3 seats: 4 rounds (5 would need a nearly Kirkman triple
    // system of order 12, which does not exist), found by the search.
    let s = schedule(&field(12), 3, 4, &[], 4).expect("4 rounds");
    assert!(matches!(s.source, ScheduleSource::Search { .. }));
    assert!(pair_counts(&s).values().all(|&c| c == 1));
    assert_eq!(position_spread(&field(12), &s, 3), 1);
}

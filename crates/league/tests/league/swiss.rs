//! Swiss seating: properties over random fields and histories, checked
//! against an exhaustive search where fields are small.

use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use skit_league::{
    Constraints, History, PairingError, PlayerId, Seed, SwissRequest, SwissRound, Table, swiss,
    table_sizes,
};

use crate::brute::least_worst_repeat;
use crate::{field, random_history, seats_everyone_once, shuffled, worst_repeat};

fn seat(
    ranking: &[PlayerId],
    seats: usize,
    history: &History,
    constraints: &Constraints,
    round: u32,
) -> Result<SwissRound, PairingError> {
    seat_within(ranking, seats, history, constraints, round, 2_000_000)
}

fn seat_within(
    ranking: &[PlayerId],
    seats: usize,
    history: &History,
    constraints: &Constraints,
    round: u32,
    budget: u64,
) -> Result<SwissRound, PairingError> {
    swiss(SwissRequest {
        ranking,
        seats,
        history,
        constraints,
        seed: Seed(9),
        round,
        budget,
    })
}

/// Fields that split, up to `max` players.
fn splitting(max: usize) -> impl Strategy<Value = (usize, usize)> {
    (2usize..=6, 2usize..=max)
        .prop_filter("a field that splits", |&(k, n)| table_sizes(n, k).is_ok())
        .prop_map(|(k, n)| (n, k))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn no_repeat_meeting_where_a_seating_without_one_exists(
        (n, k) in splitting(12), rounds in 0usize..5, seed: u64,
    ) {
        let players = field(n);
        let history = random_history(&players, k, rounds, seed);
        let ranking = shuffled(&players, &mut ChaCha8Rng::seed_from_u64(seed));
        let seated = seat(&ranking, k, &history, &Constraints::default(), 1).expect("a seating");
        let sizes = table_sizes(n, k).expect("splits");
        prop_assert!(seats_everyone_once(&players, &seated.tables));
        let mut got: Vec<usize> = seated.tables.iter().map(Table::len).collect();
        got.sort_by(|a, b| b.cmp(a));
        prop_assert_eq!(got, sizes.clone(), "tables of k or k - 1, as split");
        prop_assert!(seated.proven);
        prop_assert_eq!(worst_repeat(&history, &seated.tables), seated.repeat_limit);
        let least = least_worst_repeat(&players, &sizes, &history, &|_| true).expect("some seating");
        prop_assert_eq!(seated.repeat_limit, least, "the limit was raised only as far as it had to be");
    }

    #[test]
    fn forbidden_pairs_never_meet_and_pins_sit_together(
        (n, k) in splitting(12), rounds in 0usize..4, seed: u64,
    ) {
        prop_assume!(k >= 3 && n >= 4);
        let players = field(n);
        let history = random_history(&players, k, rounds, seed);
        let constraints = Constraints {
            together: vec![vec![players[0], players[n - 1]]],
            apart: vec![(players[1], players[2])],
        };
        let sizes = table_sizes(n, k).expect("splits");
        match seat(&players, k, &history, &constraints, 2) {
            Ok(seated) => {
                prop_assert!(seats_everyone_once(&players, &seated.tables));
                for t in &seated.tables {
                    prop_assert!(!(t.contains(players[1]) && t.contains(players[2])));
                    prop_assert_eq!(t.contains(players[0]), t.contains(players[n - 1]));
                }
            }
            Err(error) => {
                // Only when no seating at all keeps the pin and the forbid.
                prop_assert_eq!(error, PairingError::Unseatable);
                let (a, b, c, d) = (players[0], players[n - 1], players[1], players[2]);
                let ok = |t: &[PlayerId]| t.contains(&a) == t.contains(&b) && !(t.contains(&c) && t.contains(&d));
                prop_assert_eq!(least_worst_repeat(&players, &sizes, &history, &ok), None);
            }
        }
    }

    #[test]
    fn the_same_inputs_and_seed_give_the_same_round(
        (n, k) in splitting(40), rounds in 0usize..4, seed: u64,
    ) {
        let players = field(n);
        let history = random_history(&players, k, rounds, seed);
        let none = Constraints::default();
        let a = seat_within(&players, k, &history, &none, 3, 20_000).expect("a seating");
        let b = seat_within(&players, k, &history, &none, 3, 20_000).expect("a seating");
        prop_assert_eq!(&a, &b);
        prop_assert!(seats_everyone_once(&players, &a.tables));
    }
}

/// Plays `rounds` Swiss rounds with results drawn at random, returning each
/// player's position counts and the history.
fn play(n: usize, k: usize, rounds: u32, seed: u64) -> (History, Vec<[u32; 6]>) {
    let players = field(n);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut history = History::new();
    for round in 1..=rounds {
        let ranking = shuffled(&players, &mut rng);
        let seated =
            seat(&ranking, k, &history, &Constraints::default(), round).expect("a seating");
        for t in &seated.tables {
            history.record(t);
        }
    }
    let counts = players.iter().map(|&p| history.positions(p)).collect();
    (history, counts)
}

#[test]
fn positions_stay_balanced_round_after_round() {
    // At full tables of k for k rounds, most players sit each position
    // once, and nobody sits one position three times.
    for (n, k, seed) in [
        (9, 3, 1),
        (12, 4, 2),
        (16, 4, 3),
        (25, 5, 4),
        (18, 6, 5),
        (20, 2, 6),
    ] {
        let rounds = k as u32;
        let (_, counts) = play(n, k, rounds, seed);
        let once = counts
            .iter()
            .filter(|c| c[..k].iter().all(|&x| x == 1))
            .count();
        assert!(
            once * 2 >= n,
            "{n} at {k}: only {once} sat every position once: {counts:?}"
        );
        assert!(
            counts.iter().all(|c| c.iter().all(|&x| x <= 2)),
            "{n} at {k}: {counts:?}"
        );
    }
}

#[test]
fn nine_players_at_three_seats_meet_nobody_twice_for_four_rounds() {
    // 9 players at 3 seats: 4 rounds can seat every pair at most once (an
    // affine plane exists), and greedy top-down seating would fail in
    // round 3 or 4 without the search.
    let (history, _) = play(9, 3, 4, 11);
    assert_eq!(history.most_met(), 1);
}

#[test]
fn a_fifth_round_for_nine_at_three_seats_must_repeat_and_says_so() {
    let (history, _) = play(9, 3, 4, 11);
    let players = field(9);
    let seated = seat(&players, 3, &history, &Constraints::default(), 5).expect("a seating");
    // Every pair has met once: a repeat at every table, proven unavoidable.
    assert_eq!((seated.repeat_limit, seated.proven), (1, true));
}

#[test]
fn an_impossible_field_is_refused_naming_the_sizes() {
    let players = field(7);
    let error = seat(&players, 6, &History::new(), &Constraints::default(), 1).expect_err("7 at 6");
    assert!(error.to_string().contains("sitting out"), "{error}");
}

//! The league crate's scenarios and properties, one binary.

mod arena;
mod brute;
mod elimination;
mod round_robin;
mod scoring;
mod split;
mod swiss;
mod tiebreaks;

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use skit_league::{History, PlayerId, Table, table_sizes};

/// Players 1..=n.
pub fn field(n: usize) -> Vec<PlayerId> {
    (1..=n as u64).map(PlayerId).collect()
}

/// `rounds` random seatings of `players` at tables of `seats`, as a
/// history (the field must split).
pub fn random_history(players: &[PlayerId], seats: usize, rounds: usize, seed: u64) -> History {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let sizes = table_sizes(players.len(), seats).expect("a field that splits");
    let mut history = History::new();
    for _ in 0..rounds {
        let mut order = players.to_vec();
        order.shuffle(&mut rng);
        let mut rest = order.as_slice();
        for &size in &sizes {
            let (table, more) = rest.split_at(size);
            history.record(&Table::new(table.to_vec()));
            rest = more;
        }
    }
    history
}

/// Every player of `field` exactly once across `tables`.
pub fn seats_everyone_once(field: &[PlayerId], tables: &[Table]) -> bool {
    let mut seated: Vec<PlayerId> = tables.iter().flat_map(|t| t.seats.clone()).collect();
    seated.sort();
    let mut expected = field.to_vec();
    expected.sort();
    seated == expected
}

/// The most times two players at one of `tables` met before.
pub fn worst_repeat(history: &History, tables: &[Table]) -> u32 {
    tables
        .iter()
        .flat_map(|t| {
            t.seats.iter().flat_map(|&a| {
                t.seats
                    .iter()
                    .filter(move |&&b| b != a)
                    .map(move |&b| history.met(a, b))
            })
        })
        .max()
        .unwrap_or(0)
}

/// A random ranking of `players`.
pub fn shuffled(players: &[PlayerId], rng: &mut impl Rng) -> Vec<PlayerId> {
    let mut order = players.to_vec();
    order.shuffle(rng);
    order
}

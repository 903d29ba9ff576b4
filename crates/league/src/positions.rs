//! Who deals and who plays first at a table seated round by round: the
//! order of its players that least repeats the positions each has sat
//! before. Of all orders of the table, the one with the smallest sum over
//! its players of (times sat at the new position + 1)^2, so a player who
//! sat a position more often than the others is moved off it unless the
//! others have sat it even more. Orders that tie are taken in a seeded
//! order, so nobody is first by account number.

use crate::{History, PlayerId, Seed, Table};

/// `players` ordered into positions (0 = dealer) against `history`;
/// `index` tells apart the tables of one round in the seed's stream.
pub(crate) fn seat(
    players: &[PlayerId],
    history: &History,
    seed: Seed,
    label: &str,
    index: u64,
) -> Table {
    let mut players = players.to_vec();
    players.sort();
    seed.stream(label, index).shuffle(&mut players);
    let counts: Vec<[u32; 6]> = players.iter().map(|&p| history.positions(p)).collect();
    let mut order: Vec<usize> = (0..players.len()).collect();
    let mut best = order.clone();
    let mut best_cost = cost(&order, &counts);
    while next_permutation(&mut order) {
        let c = cost(&order, &counts);
        if c < best_cost {
            best_cost = c;
            best = order.clone();
        }
    }
    Table::new(best.into_iter().map(|i| players[i]).collect())
}

/// `order[position]` is the player (index) at that position.
fn cost(order: &[usize], counts: &[[u32; 6]]) -> u64 {
    order
        .iter()
        .enumerate()
        .map(|(position, &i)| u64::from(counts[i][position] + 1).pow(2))
        .sum()
}

/// The next permutation in lexicographic order; false after the last.
fn next_permutation(items: &mut [usize]) -> bool {
    let Some(i) = (1..items.len()).rev().find(|&i| items[i - 1] < items[i]) else {
        return false;
    };
    let j = (i..items.len())
        .rev()
        .find(|&j| items[j] > items[i - 1])
        .unwrap_or(i);
    items.swap(i - 1, j);
    items[i..].reverse();
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_order_of_four_is_visited_once() {
        let mut items = vec![0, 1, 2, 3];
        let mut seen = vec![items.clone()];
        while next_permutation(&mut items) {
            seen.push(items.clone());
        }
        assert_eq!(seen.len(), 24);
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), 24);
    }
}

//! Splitting a field into tables of `k` or `k - 1` seats so that nobody
//! sits out: as few tables as possible, and among those as few short ones.

use thiserror::Error;

/// Why a field cannot be seated at tables of `k` or `k - 1`.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SplitError {
    #[error("tables have 2 to 6 seats, not {0}")]
    Seats(usize),
    #[error("{players} players cannot fill one table of {}", sizes(*.min, *.seats))]
    TooFew {
        players: usize,
        seats: usize,
        min: usize,
    },
    #[error(
        "{players} players cannot be seated at tables of {} without someone sitting out; \
         {below} or {above} players can",
        sizes(*.short, *.seats)
    )]
    Impossible {
        players: usize,
        seats: usize,
        short: usize,
        below: usize,
        above: usize,
    },
}

/// "5 or 4 seats", or "2 seats" where both are the same.
fn sizes(short: usize, seats: usize) -> String {
    if short == seats {
        format!("{seats} seats")
    } else {
        format!("{seats} or {short} seats")
    }
}

/// The smallest table a `k`-seat event may use: `k - 1`, but never one
/// seat (at 2 seats every table is full).
fn short(k: usize) -> usize {
    if k == 2 { 2 } else { k - 1 }
}

fn fits(players: usize, k: usize) -> bool {
    let tables = players.div_ceil(k);
    players > 0 && tables * short(k) <= players
}

/// The table sizes for `players` at `k`-seat tables: full tables first,
/// then the short ones. With t = ceil(players / k) tables, t k - players
/// of them are short; that is possible exactly when it is at most t (and,
/// for 2-seat tables, when it is 0).
///
/// ```
/// use skit_league::table_sizes;
/// assert_eq!(table_sizes(9, 3), Ok(vec![3, 3, 3]));
/// assert_eq!(table_sizes(10, 4), Ok(vec![4, 3, 3]));
/// assert!(table_sizes(7, 6).is_err()); // 6 + 1 or 5 + 2: someone sits out
/// ```
pub fn table_sizes(players: usize, k: usize) -> Result<Vec<usize>, SplitError> {
    if !(2..=6).contains(&k) {
        return Err(SplitError::Seats(k));
    }
    if players < short(k) {
        return Err(SplitError::TooFew {
            players,
            seats: k,
            min: short(k),
        });
    }
    if !fits(players, k) {
        let below = (0..players).rev().find(|&n| fits(n, k)).unwrap_or(0);
        let above = (players + 1..).find(|&n| fits(n, k)).unwrap_or(players);
        return Err(SplitError::Impossible {
            players,
            seats: k,
            short: short(k),
            below,
            above,
        });
    }
    let tables = players.div_ceil(k);
    let shorts = tables * k - players;
    Ok((0..tables)
        .map(|t| if t < tables - shorts { k } else { k - 1 })
        .collect())
}

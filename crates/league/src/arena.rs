//! Arena: for a fixed duration, players who finish a table wait in a pool
//! and are seated again at once with players near them in rank and
//! rating. Lichess's arena pairing score, applied to every pair at a
//! table: |rank a - rank b| x (300 + 1700 (max rank - min(rank a, rank b))
//! / max rank) + |rating a - rating b|, plus a rematch penalty when the two
//! sat at each other's last table. Near the top, rank counts more. A
//! seating's cost is the sum over its tables' pairs; tables are cut from
//! the pool in rank order and improved by swapping two players of
//! different tables while that lowers the cost.

use crate::{Constraints, History, PlayerId, Seed, Table, table_sizes};

/// A cost no ranks or ratings reach, so swaps part players kept apart.
const KEPT_APART: i64 = 1 << 50;

/// A player waiting in the pool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Waiting {
    pub player: PlayerId,
    /// The current rank in the arena's standings (1 = leader).
    pub rank: u32,
    pub rating: i64,
}

/// The arena's seating settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArenaParams {
    pub seats: usize,
    /// Added for each pair that sat at each other's last table.
    pub rematch_penalty: i64,
    /// Swap passes at most (each pass tries every swap once).
    pub passes: u32,
}

/// Tables for part of the pool, and who keeps waiting.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArenaSeating {
    pub tables: Vec<Table>,
    pub waiting: Vec<PlayerId>,
}

/// Seats the pool (`pool` in arrival order). As many players as can fill
/// tables of k or k - 1 are seated; the latest arrivals wait for the rest.
/// Players kept apart by `constraints` are swapped apart; a table that
/// still holds two of them is not seated, and its players wait too. `index` tells apart the calls of one event.
pub fn arena(
    pool: &[Waiting],
    params: ArenaParams,
    history: &History,
    constraints: &Constraints,
    seed: Seed,
    index: u64,
) -> ArenaSeating {
    let seated = (0..=pool.len())
        .rev()
        .find(|&m| table_sizes(m, params.seats).is_ok())
        .unwrap_or(0);
    let mut waiting: Vec<PlayerId> = pool[seated..].iter().map(|w| w.player).collect();
    let mut players: Vec<Waiting> = pool[..seated].to_vec();
    players.sort_by_key(|w| (w.rank, w.player));
    let sizes = table_sizes(seated, params.seats).unwrap_or_default();
    let max_rank = i64::from(players.iter().map(|w| w.rank).max().unwrap_or(1).max(1));
    let cost = |a: &Waiting, b: &Waiting| {
        let (ra, rb) = (i64::from(a.rank), i64::from(b.rank));
        let factor = 300 + 1700 * (max_rank - ra.min(rb)) / max_rank;
        let rematch = history.just_met(a.player, b.player) || history.just_met(b.player, a.player);
        let apart = constraints.forbidden(a.player, b.player);
        (ra - rb).abs() * factor
            + (a.rating - b.rating).abs()
            + if rematch { params.rematch_penalty } else { 0 }
            + if apart { KEPT_APART } else { 0 }
    };
    let table_cost = |t: &[Waiting]| -> i64 {
        t.iter()
            .enumerate()
            .map(|(i, a)| t[i + 1..].iter().map(|b| cost(a, b)).sum::<i64>())
            .sum()
    };
    let mut tables: Vec<Vec<Waiting>> = Vec::new();
    let mut rest = players.as_slice();
    for size in sizes {
        let (table, more) = rest.split_at(size);
        tables.push(table.to_vec());
        rest = more;
    }
    for _ in 0..params.passes {
        let mut improved = false;
        for i in 0..tables.len() {
            for j in i + 1..tables.len() {
                for x in 0..tables[i].len() {
                    for y in 0..tables[j].len() {
                        let before = table_cost(&tables[i]) + table_cost(&tables[j]);
                        let (mut ti, mut tj) = (tables[i].clone(), tables[j].clone());
                        std::mem::swap(&mut ti[x], &mut tj[y]);
                        if table_cost(&ti) + table_cost(&tj) < before {
                            tables[i] = ti;
                            tables[j] = tj;
                            improved = true;
                        }
                    }
                }
            }
        }
        if !improved {
            break;
        }
    }
    let mut out = Vec::new();
    for (t, table) in tables.iter().enumerate() {
        let ids: Vec<PlayerId> = table.iter().map(|w| w.player).collect();
        let forbidden = ids
            .iter()
            .any(|&a| ids.iter().any(|&b| constraints.forbidden(a, b)));
        if forbidden {
            waiting.extend(ids);
        } else {
            out.push(crate::positions::seat(
                &ids,
                history,
                seed,
                "arena",
                (index << 8) | t as u64,
            ));
        }
    }
    ArenaSeating {
        tables: out,
        waiting,
    }
}

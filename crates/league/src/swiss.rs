//! Swiss for k-seat tables. Players are seated in standings order, so a
//! table is filled from one score group and then the next; no two players
//! who met before share a table if any seating allows it; if none does,
//! the limit on earlier meetings is raised by one and the search run again,
//! step by step. Within each table the positions go to those who sat them
//! least (see `positions`).

use crate::search::Found;
use crate::{Constraints, History, PairingError, PlayerId, Seed, Table, table_sizes};

/// What a Swiss round is seated from.
#[derive(Debug, Clone, Copy)]
pub struct SwissRequest<'a> {
    /// The field, best first: the standings, or the seeding before round 1.
    pub ranking: &'a [PlayerId],
    pub seats: usize,
    pub history: &'a History,
    pub constraints: &'a Constraints,
    pub seed: Seed,
    pub round: u32,
    /// The search steps allowed at each limit. When they run out before a
    /// limit is settled, the next limit is tried and `proven` is false.
    pub budget: u64,
}

/// A seated round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SwissRound {
    /// Top score group first.
    pub tables: Vec<Table>,
    /// The most times any two players at one table had met before (pins
    /// aside): 0 unless no seating avoided a repeat.
    pub repeat_limit: u32,
    /// Whether every lower limit was proven impossible (true when the
    /// limit is 0); false means a search ran out of budget.
    pub proven: bool,
}

/// Seats one Swiss round.
pub fn swiss(request: SwissRequest<'_>) -> Result<SwissRound, PairingError> {
    let sizes = table_sizes(request.ranking.len(), request.seats)?;
    let field = crate::field::Prepared::new(request.ranking, request.constraints, request.seats)?;
    let (history, constraints) = (request.history, request.constraints);
    let mut proven = true;
    for limit in 0..=history.most_met() {
        let found = field.search(&sizes, request.budget, |a, b| {
            a == b || (!constraints.forbidden(a, b) && history.met(a, b) <= limit)
        });
        match found {
            Found::Tables(mut tables) => {
                // The table of the best-ranked player first.
                tables.sort_by_key(|t| t.iter().min().copied());
                let tables = tables
                    .iter()
                    .enumerate()
                    .map(|(t, table)| {
                        let index = (u64::from(request.round) << 8) | t as u64;
                        crate::positions::seat(
                            &field.players(table),
                            history,
                            request.seed,
                            "swiss",
                            index,
                        )
                    })
                    .collect();
                return Ok(SwissRound {
                    tables,
                    repeat_limit: limit,
                    proven,
                });
            }
            Found::None => {}
            Found::OutOfBudget if limit == history.most_met() => {
                return Err(PairingError::OutOfBudget(request.budget));
            }
            Found::OutOfBudget => proven = false,
        }
    }
    Err(PairingError::Unseatable)
}

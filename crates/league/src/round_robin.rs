//! Round robin with fair seating: a whole schedule made before play, in
//! which no two players share a table twice and positions are balanced
//! exactly (see `equitable`). Built-in designs are used where they exist:
//! the circle method for 2 seats and affine planes for 9, 16 and 25
//! players at 3, 4 and 5 seats. Other fields are searched round by round
//! from seeded orders, restarting with a new order when a round cannot be
//! completed; a schedule that is not found within the attempts is an
//! error, never a schedule with a repeat.

use std::collections::BTreeMap;

use crate::search::Found;
use crate::{Constraints, PairingError, PlayerId, Seed, Table, table_sizes};

/// What a round-robin schedule is made from.
#[derive(Debug, Clone, Copy)]
pub struct RoundRobinRequest<'a> {
    pub players: &'a [PlayerId],
    pub seats: usize,
    pub rounds: usize,
    /// Pairs that must never share a table.
    pub apart: &'a [(PlayerId, PlayerId)],
    pub seed: Seed,
    /// Search steps allowed for each round of an attempt.
    pub budget: u64,
    /// Seeded orders to try before giving up.
    pub attempts: u32,
}

/// Where a schedule came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScheduleSource {
    /// The circle method (2 seats).
    Circle,
    /// An affine plane (q x q players at q seats).
    AffinePlane,
    /// The search, at this attempt (0-based).
    Search { attempt: u32 },
}

/// A round-robin schedule: every round's tables, positions balanced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Schedule {
    pub rounds: Vec<Vec<Table>>,
    pub source: ScheduleSource,
}

/// Makes a round-robin schedule.
pub fn round_robin(request: RoundRobinRequest<'_>) -> Result<Schedule, PairingError> {
    let (n, k) = (request.players.len(), request.seats);
    let sizes = table_sizes(n, k)?;
    let constraints = Constraints {
        together: Vec::new(),
        apart: request.apart.to_vec(),
    };
    let base = crate::field::Prepared::new(request.players, &constraints, k)?;
    let pairs_per_round: usize = sizes.iter().map(|s| s * (s - 1) / 2).sum();
    // Every pair at most once overall, and each player meets at least
    // (smallest table - 1) new players a round.
    let smallest = sizes.iter().copied().min().unwrap_or(k);
    let most = (n * (n - 1) / 2 / pairs_per_round).min((n - 1) / (smallest - 1));
    if request.rounds > most {
        return Err(PairingError::TooManyRounds {
            players: n,
            seats: k,
            most,
        });
    }
    let mut order = base.order.clone();
    order.sort();
    request
        .seed
        .stream("round robin order", 0)
        .shuffle(&mut order);
    let index: BTreeMap<PlayerId, usize> = order.iter().enumerate().map(|(i, &p)| (p, i)).collect();
    let apart = |rounds: &[Vec<Vec<usize>>]| {
        rounds.iter().flatten().any(|t| {
            t.iter()
                .any(|&a| t.iter().any(|&b| constraints.forbidden(order[a], order[b])))
        })
    };
    let design = crate::design::known(n, k)
        .filter(|d| d.len() >= request.rounds)
        .map(|mut d| {
            d.truncate(request.rounds);
            d
        });
    let (mut rounds, source) = match design.filter(|d| !apart(d)) {
        Some(d) => (
            d,
            if k == 2 {
                ScheduleSource::Circle
            } else {
                ScheduleSource::AffinePlane
            },
        ),
        None => search(&request, &constraints, &order, &index, &sizes)?,
    };
    let widest = sizes.iter().copied().max().unwrap_or(k);
    crate::equitable::balance(n, widest, &mut rounds);
    let rounds = rounds
        .into_iter()
        .map(|round| {
            round
                .into_iter()
                .map(|t| Table::new(t.into_iter().map(|i| order[i]).collect()))
                .collect()
        })
        .collect();
    Ok(Schedule { rounds, source })
}

type IndexRounds = Vec<Vec<Vec<usize>>>;

fn search(
    request: &RoundRobinRequest<'_>,
    constraints: &Constraints,
    order: &[PlayerId],
    index: &BTreeMap<PlayerId, usize>,
    sizes: &[usize],
) -> Result<(IndexRounds, ScheduleSource), PairingError> {
    let n = order.len();
    'attempts: for attempt in 0..request.attempts {
        let mut stream = request
            .seed
            .stream("round robin attempt", u64::from(attempt));
        let mut met = vec![vec![false; n]; n];
        let mut rounds = Vec::new();
        for _ in 0..request.rounds {
            let mut shuffled = order.to_vec();
            stream.shuffle(&mut shuffled);
            let field = crate::field::Prepared::new(&shuffled, constraints, request.seats)?;
            let found = field.search(sizes, request.budget, |a, b| {
                a == b || (!constraints.forbidden(a, b) && !met[index[&a]][index[&b]])
            });
            let Found::Tables(tables) = found else {
                continue 'attempts;
            };
            let tables: Vec<Vec<usize>> = tables
                .iter()
                .map(|t| field.players(t).iter().map(|p| index[p]).collect())
                .collect();
            for t in &tables {
                for &a in t {
                    for &b in t {
                        met[a][b] = true;
                    }
                }
            }
            rounds.push(tables);
        }
        return Ok((rounds, ScheduleSource::Search { attempt }));
    }
    Err(PairingError::NoSchedule {
        rounds: request.rounds,
        attempts: request.attempts,
    })
}

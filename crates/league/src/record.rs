//! Each player's record over an event's finished tables: the totals that
//! scores and tiebreaks are computed from.

use std::collections::BTreeMap;

use crate::{PlayerId, Points, TableResult};

/// One player's totals, and where they sat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    pub score: Points,
    pub games: usize,
    /// Tables finished on place 1, shared or not.
    pub firsts: usize,
    /// Tables finished as the skitgubbe.
    pub skitgubbes: usize,
    /// (index into the results, seat) of each table played.
    pub(crate) sat: Vec<(usize, usize)>,
}

impl Record {
    fn new() -> Self {
        Self {
            score: Points::from_integer(0),
            games: 0,
            firsts: 0,
            skitgubbes: 0,
            sat: Vec::new(),
        }
    }
}

/// The records of `players` over `results`; a player of a result who is
/// not among `players` is returned as `Err`.
pub(crate) fn records(
    players: &[PlayerId],
    results: &[TableResult],
) -> Result<BTreeMap<PlayerId, Record>, PlayerId> {
    let mut records: BTreeMap<PlayerId, Record> =
        players.iter().map(|&p| (p, Record::new())).collect();
    for (r, result) in results.iter().enumerate() {
        for (seat, player) in result.seats().iter().enumerate() {
            let record = records.get_mut(player).ok_or(*player)?;
            record.score += result.points(seat);
            record.games += 1;
            record.firsts += usize::from(result.place(seat) == 1);
            record.skitgubbes += usize::from(result.loser() == Some(seat));
            record.sat.push((r, seat));
        }
    }
    Ok(records)
}

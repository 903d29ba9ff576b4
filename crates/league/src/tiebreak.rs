//! The tiebreaks an operator chains after the score. Each gives a player a
//! number, higher is better; the chain is applied in order to the players
//! still level, and a seeded lot always ends it so every rank is distinct.

use std::collections::BTreeMap;

use crate::{PlayerId, Points, Record, TableResult};

/// One tiebreak of an operator's chain (docs/leagues.md has the
/// definitions with examples).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Tiebreak {
    /// Among the players still level: for every table where two of them
    /// sat, +1 to the one placed ahead and -1 to the one behind (nothing
    /// for a shared place). Pairs that never met count nothing.
    HeadToHead,
    /// The mean final score of the opponents, over every opponent at every
    /// table (an opponent met twice counts twice).
    OpponentsAverage,
    /// Multi-seat Sonneborn-Berger: for every table and every opponent b
    /// there, the result against b (1 placed ahead, 1/2 level, 0 behind)
    /// times b's final score, divided by the table's number of opponents
    /// (n - 1). With two seats it is chess's Sonneborn-Berger.
    SonnebornBerger,
    /// Tables finished on place 1.
    Firsts,
    /// Fewest tables finished as the skitgubbe.
    FewestSkitgubbe,
    /// Rating performance: the mean over every opponent at every table of
    /// the opponent's rating plus `spread` for placing ahead, minus
    /// `spread` for placing behind (0 for level).
    Performance,
}

/// What the tiebreaks read: everyone's records, the results and ratings.
#[derive(Debug)]
pub(crate) struct Field<'a> {
    pub records: &'a BTreeMap<PlayerId, Record>,
    pub results: &'a [TableResult],
    pub ratings: &'a BTreeMap<PlayerId, i64>,
    pub spread: i64,
}

impl Tiebreak {
    /// The value of `player` when `group` (which holds `player`) is level
    /// up to this tiebreak.
    pub(crate) fn value(self, field: &Field<'_>, player: PlayerId, group: &[PlayerId]) -> Points {
        let zero = Points::from_integer(0);
        let record = &field.records[&player];
        // (result, my seat, opponent's seat) for every opponent met.
        let meetings = record.sat.iter().flat_map(|&(r, seat)| {
            let result = &field.results[r];
            (0..result.seats().len())
                .filter(move |&other| other != seat)
                .map(move |other| (result, seat, other))
        });
        let mean = |values: Vec<Points>| {
            if values.is_empty() {
                zero
            } else {
                let n = values.len() as i64;
                values.into_iter().sum::<Points>() / n
            }
        };
        match self {
            Tiebreak::HeadToHead => meetings
                .filter(|(result, _, other)| group.contains(&result.seats()[*other]))
                .map(|(result, seat, other)| (result.versus(seat, other) - Points::new(1, 2)) * 2)
                .sum(),
            Tiebreak::OpponentsAverage => mean(
                meetings
                    .map(|(result, _, other)| field.records[&result.seats()[other]].score)
                    .collect(),
            ),
            Tiebreak::SonnebornBerger => meetings
                .map(|(result, seat, other)| {
                    let opponents = result.seats().len() as i64 - 1;
                    result.versus(seat, other) * field.records[&result.seats()[other]].score
                        / opponents
                })
                .sum(),
            Tiebreak::Firsts => Points::from(record.firsts as i64),
            Tiebreak::FewestSkitgubbe => -Points::from(record.skitgubbes as i64),
            Tiebreak::Performance => {
                let own = field.ratings.get(&player).copied().unwrap_or(0);
                let values: Vec<Points> = meetings
                    .map(|(result, seat, other)| {
                        let rating = field
                            .ratings
                            .get(&result.seats()[other])
                            .copied()
                            .unwrap_or(0);
                        let edge = (result.versus(seat, other) - Points::new(1, 2)) * 2;
                        Points::from(rating) + edge * field.spread
                    })
                    .collect();
                if values.is_empty() {
                    Points::from(own)
                } else {
                    mean(values)
                }
            }
        }
    }
}

//! What earlier rounds left behind that seating must look at: how often
//! each pair sat together, how often each player sat each position, and
//! who sat at each player's last table.

use std::collections::BTreeMap;

use crate::{PlayerId, Table};

/// The seats taken so far in an event, fed table by table in the order
/// they were played.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct History {
    meetings: BTreeMap<(PlayerId, PlayerId), u32>,
    positions: BTreeMap<PlayerId, [u32; 6]>,
    last: BTreeMap<PlayerId, Vec<PlayerId>>,
}

fn pair(a: PlayerId, b: PlayerId) -> (PlayerId, PlayerId) {
    if a <= b { (a, b) } else { (b, a) }
}

impl History {
    pub fn new() -> Self {
        Self::default()
    }

    /// The history of `tables`, oldest first.
    pub fn of<'a>(tables: impl IntoIterator<Item = &'a Table>) -> Self {
        let mut history = Self::new();
        for table in tables {
            history.record(table);
        }
        history
    }

    /// Adds a table that was played.
    pub fn record(&mut self, table: &Table) {
        for (i, &a) in table.seats.iter().enumerate() {
            for &b in &table.seats[i + 1..] {
                *self.meetings.entry(pair(a, b)).or_default() += 1;
            }
            if let Some(count) = self.positions.entry(a).or_default().get_mut(i) {
                *count += 1;
            }
            let others = table.seats.iter().copied().filter(|&b| b != a).collect();
            self.last.insert(a, others);
        }
    }

    /// How many times `a` and `b` sat at one table.
    pub fn met(&self, a: PlayerId, b: PlayerId) -> u32 {
        self.meetings.get(&pair(a, b)).copied().unwrap_or(0)
    }

    /// The most times any two players met.
    pub fn most_met(&self) -> u32 {
        self.meetings.values().copied().max().unwrap_or(0)
    }

    /// How many times `player` sat each position (0 = dealer).
    pub fn positions(&self, player: PlayerId) -> [u32; 6] {
        self.positions.get(&player).copied().unwrap_or_default()
    }

    /// Whether `b` sat at `a`'s last table.
    pub fn just_met(&self, a: PlayerId, b: PlayerId) -> bool {
        self.last.get(&a).is_some_and(|o| o.contains(&b))
    }
}

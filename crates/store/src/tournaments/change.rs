//! One change to a tournament, applied all or nothing if nobody changed
//! the tournament since it was read: its phase, round and constraints, an
//! entry, new tables, table updates, and the events that report it.

use serde_json::Value;

use super::tournament::{TournamentEntry, TournamentPhase, TournamentTable};

/// Everything a change writes; `None` and empty leave things as they are.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TournamentChange {
    /// The new phase and its reason.
    pub phase: Option<(TournamentPhase, String)>,
    pub round: Option<u32>,
    /// A new spec (an operator's edit) and start time.
    pub spec: Option<Value>,
    pub starts_at: Option<Option<time::OffsetDateTime>>,
    /// When it started (set once, with the start).
    pub started_at: Option<time::OffsetDateTime>,
    pub constraints: Option<Value>,
    /// Inserted, or replacing the account's entry.
    pub entry: Option<TournamentEntry>,
    /// Inserted.
    pub new_tables: Vec<TournamentTable>,
    /// Replacing the stored table with the same round and number.
    pub updated_tables: Vec<TournamentTable>,
    /// Bodies of the new events, numbered from the tournament's
    /// `sequence + 1` in order.
    pub events: Vec<Value>,
}

impl TournamentChange {
    pub fn is_empty(&self) -> bool {
        self == &Self::default()
    }
}

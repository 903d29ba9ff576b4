//! Ends the rules do not know: a seat resigning, or a seat's clock running
//! out under `ON_TIMEOUT_LOSE`. Either makes that seat the skitgubbe and
//! ends the game at once; the engine state stays where play stopped. A
//! forfeit under `ON_TIMEOUT_FORFEIT` ([`Forfeited`]) gives the seat the
//! last place without ending the game. And an operator's void ([`Void`]):
//! over with no loser at all.

use serde::{Deserialize, Serialize};
use skit_engine::Seat;
use time::OffsetDateTime;

/// Why a seat lost outside the rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Forfeit {
    Resigned,
    Timeout,
}

/// A game ended by a forfeit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ending {
    /// The loser.
    pub seat: Seat,
    pub reason: Forfeit,
    /// The version of the forfeit event.
    pub version: u64,
    pub at: OffsetDateTime,
    /// The client's move id of a resignation.
    pub move_id: Option<String>,
}

/// A seat that forfeited under `ON_TIMEOUT_FORFEIT` while the game went on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Forfeited {
    pub seat: Seat,
    /// The version of the forfeit event.
    pub version: u64,
    pub at: OffsetDateTime,
}

/// The game's end by an operator's void.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Void {
    /// The version of the void event.
    pub version: u64,
    pub at: OffsetDateTime,
    pub reason: String,
}

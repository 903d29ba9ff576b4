//! Who plays: a player of an event, named by the account id.

use std::fmt;

/// A player of an event: the account that holds the seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PlayerId(pub u64);

impl fmt::Display for PlayerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// One table of a round: its players in play order. Position 0 deals (the
/// game is created with dealer 0), position 1 plays first, and so on
/// clockwise.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Table {
    pub seats: Vec<PlayerId>,
}

impl Table {
    pub fn new(seats: Vec<PlayerId>) -> Self {
        Self { seats }
    }

    pub fn len(&self) -> usize {
        self.seats.len()
    }

    pub fn is_empty(&self) -> bool {
        self.seats.is_empty()
    }

    pub fn contains(&self, player: PlayerId) -> bool {
        self.seats.contains(&player)
    }

    /// The position (0 = dealer) of `player`, if seated here.
    pub fn position(&self, player: PlayerId) -> Option<usize> {
        self.seats.iter().position(|&p| p == player)
    }
}

//! A table's result as the game service reports it (each seat's place,
//! shared places repeated, and the skitgubbe if there is one), checked once
//! so that scoring cannot fail.

use thiserror::Error;

use crate::{PlayerId, Points, Table, placement_points};

/// What is wrong with a reported result.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ResultError {
    #[error("a table has 2 to 6 seats, not {0}")]
    Seats(usize),
    #[error("{places} places for {seats} seats")]
    PlaceCount { seats: usize, places: usize },
    #[error("player {0} sits twice at the table")]
    Duplicate(PlayerId),
    #[error("place {place} of seat {seat} is not a competition rank (1 + the seats placed ahead)")]
    Place { seat: usize, place: usize },
    #[error("the skitgubbe (seat {0}) must be alone in last place")]
    Loser(usize),
}

/// A finished table: its seating, each seat's place and the skitgubbe.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableResult {
    table: Table,
    places: Vec<usize>,
    loser: Option<usize>,
}

impl TableResult {
    /// Checks that `places` (in seat order, 1 = first) are competition
    /// ranks: a seat's place is one more than the number of seats placed
    /// ahead of it, so shared places repeat ("1, 1, 3"). The skitgubbe
    /// (`loser`, a seat index) must hold the last place alone. Without a
    /// skitgubbe (a game drawn by the action limit) the seats still in
    /// share the place after the last seat out.
    pub fn new(
        table: Table,
        places: Vec<usize>,
        loser: Option<usize>,
    ) -> Result<Self, ResultError> {
        let n = table.len();
        if !(2..=6).contains(&n) {
            return Err(ResultError::Seats(n));
        }
        if places.len() != n {
            return Err(ResultError::PlaceCount {
                seats: n,
                places: places.len(),
            });
        }
        for (i, p) in table.seats.iter().enumerate() {
            if table.seats[..i].contains(p) {
                return Err(ResultError::Duplicate(*p));
            }
        }
        for (seat, &place) in places.iter().enumerate() {
            let ahead = places.iter().filter(|&&q| q < place).count();
            if place != ahead + 1 {
                return Err(ResultError::Place { seat, place });
            }
        }
        if let Some(seat) = loser {
            let alone_last = places.get(seat) == Some(&n);
            if !alone_last {
                return Err(ResultError::Loser(seat));
            }
        }
        Ok(Self {
            table,
            places,
            loser,
        })
    }

    pub fn table(&self) -> &Table {
        &self.table
    }

    pub fn seats(&self) -> &[PlayerId] {
        &self.table.seats
    }

    /// The place of the player at `seat`.
    pub fn place(&self, seat: usize) -> usize {
        self.places[seat]
    }

    pub fn places(&self) -> &[usize] {
        &self.places
    }

    /// The skitgubbe's seat, if the game had one.
    pub fn loser(&self) -> Option<usize> {
        self.loser
    }

    /// The points of the player at `seat`: placement points shared with
    /// the seats on the same place; the skitgubbe scores 0.
    pub fn points(&self, seat: usize) -> Points {
        if self.loser == Some(seat) {
            return Points::from_integer(0);
        }
        let place = self.places[seat];
        let tied = self.places.iter().filter(|&&q| q == place).count();
        placement_points(self.table.len(), place, tied)
    }

    /// Seat `a` against seat `b`: 1 if `a` placed ahead, 1/2 if level,
    /// 0 if behind.
    pub fn versus(&self, a: usize, b: usize) -> Points {
        use std::cmp::Ordering::*;
        match self.places[a].cmp(&self.places[b]) {
            Less => Points::from_integer(1),
            Equal => Points::new(1, 2),
            Greater => Points::from_integer(0),
        }
    }
}

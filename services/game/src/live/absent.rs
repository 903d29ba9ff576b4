//! Seats whose holder an operator disabled or banned: the holder is
//! absent for the rest of the game, and the game's clock rule plays the
//! seat. In a timed game the seat's clock runs out as soon as it runs (a
//! pass in a window, else a bot move or a loss as `on_timeout` says); in
//! an untimed game the seat forfeits as soon as the game has started, as
//! on a loss on time. Re-enabling the account does not give the seat back.

use serde::{Deserialize, Serialize};
use serde_json::json;
use skit_engine::Seat;
use skit_store::{AccountId, NewEvent, StoredEvent};
use time::OffsetDateTime;

use super::{Live, kind};

#[derive(Debug, Serialize, Deserialize)]
struct Payload {
    seat: Seat,
}

impl Live {
    /// The events marking `account`'s seats absent; none if it holds no
    /// seat still present or the game is over.
    pub fn plan_absent(&self, account: AccountId) -> Vec<NewEvent> {
        if self.is_over() {
            return Vec::new();
        }
        self.seats_of(account)
            .into_iter()
            .filter(|&seat| !self.absent.contains(seat))
            .map(|seat| NewEvent::new(kind::ABSENT, json!(Payload { seat })))
            .collect()
    }

    /// Applies a stored `absent` event.
    pub(super) fn apply_absent(&mut self, event: &StoredEvent) -> Result<(), String> {
        let payload: Payload =
            serde_json::from_value(event.payload.clone()).map_err(|e| e.to_string())?;
        if payload.seat >= self.game.state().players() {
            return Err(format!("no seat {}", payload.seat));
        }
        self.absent.insert(payload.seat);
        self.absent_at = Some(event.created_at);
        if let Some(clocks) = self.clocks.as_mut() {
            clocks.set_absent(payload.seat);
        }
        self.last_move = None;
        Ok(())
    }

    /// When the clock rule must next act, and for which seat: the earliest
    /// deadline of a timed game (an absent seat's is when its clock
    /// starts), or in an untimed game an absent seat that can forfeit.
    pub fn due(&self) -> Option<(OffsetDateTime, Seat)> {
        if self.is_over() {
            return None;
        }
        if let Some(clocks) = &self.clocks {
            return clocks.earliest();
        }
        if self.lowest_open_seat().is_some() {
            return None;
        }
        let at = self.absent_at?;
        self.absent
            .iter()
            .find(|&seat| !self.game.state().is_out(seat))
            .map(|seat| (at, seat))
    }

    /// Whether the timeout task must watch this game: it has a clock, or
    /// an absent seat.
    pub fn watched(&self) -> bool {
        self.clocks.is_some() || !self.absent.is_empty()
    }
}

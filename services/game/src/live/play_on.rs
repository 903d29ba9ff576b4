//! A forfeit that does not end the game (`ON_TIMEOUT_FORFEIT`): the seat
//! whose time ran out takes the last place, from then on the clock plays
//! it as soon as it must act (as for an absent seat), and the others play
//! on for their own places. Only the offender loses.

use serde::{Deserialize, Serialize};
use serde_json::json;
use skit_api::ApiError;
use skit_engine::{Seat, SeatSet};
use skit_store::{NewEvent, StoredEvent};

use super::ending::Forfeited;
use super::{Live, kind};

#[derive(Debug, Serialize, Deserialize)]
struct Payload {
    seat: Seat,
}

impl Live {
    /// The event for `seat` forfeiting and the game going on: checked
    /// here, so applying it cannot fail.
    pub fn plan_play_on_forfeit(&self, seat: Seat) -> Result<Vec<NewEvent>, ApiError> {
        if self.is_over() {
            return Err(ApiError::failed_precondition(format!(
                "game {} is over",
                self.id
            )));
        }
        if self.game.state().is_out(seat) || self.has_forfeited(seat) {
            return Err(ApiError::invariant(&format!(
                "a forfeit of seat {seat}, which is out or has forfeited"
            )));
        }
        Ok(vec![NewEvent::new(kind::FORFEIT, json!(Payload { seat }))])
    }

    /// Applies a stored `forfeit` event.
    pub(super) fn apply_play_on_forfeit(&mut self, event: &StoredEvent) -> Result<(), String> {
        let payload: Payload =
            serde_json::from_value(event.payload.clone()).map_err(|e| e.to_string())?;
        if payload.seat >= self.game.state().players() {
            return Err(format!("no seat {}", payload.seat));
        }
        if self.is_over() || self.has_forfeited(payload.seat) {
            return Err("a forfeit after the end, or a second one".into());
        }
        self.forfeits.push(Forfeited {
            seat: payload.seat,
            version: event.seq,
            at: event.created_at,
        });
        if let Some(clocks) = self.clocks.as_mut() {
            clocks.set_absent(payload.seat);
        }
        self.last_move = None;
        Ok(())
    }

    pub fn has_forfeited(&self, seat: Seat) -> bool {
        self.forfeits.iter().any(|f| f.seat == seat)
    }

    /// The seats that forfeited, as a set.
    pub fn forfeited_seats(&self) -> SeatSet {
        self.forfeits.iter().map(|f| f.seat).collect()
    }

    /// Refuses a move or resignation by a seat the clock plays for good.
    pub fn check_not_forfeited(&self, seat: Seat) -> Result<(), ApiError> {
        if self.has_forfeited(seat) {
            return Err(ApiError::refused(
                "seat_forfeited",
                format!("seat {seat} forfeited on time: the clock plays it until the game ends"),
            ));
        }
        Ok(())
    }
}

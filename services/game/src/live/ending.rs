//! Ends the rules do not know: a seat resigning, or a seat's clock running
//! out under `ON_TIMEOUT_LOSE`. Either makes that seat the skitgubbe and
//! ends the game at once; the engine state stays where play stopped. Also
//! keeps the clocks in step with every applied event.

use serde::{Deserialize, Serialize};
use serde_json::json;
use skit_engine::{Action, Seat, SeatSet};
use skit_store::{NewEvent, StoredEvent};
use time::OffsetDateTime;

use super::{Live, kind};
use crate::clock;
use crate::error::ApiError;

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

#[derive(Debug, Serialize, Deserialize)]
struct Payload {
    seat: Seat,
}

impl Live {
    /// The events for `seat` forfeiting: checked here, so applying them
    /// cannot fail. A seat already out cannot forfeit: it has its place.
    pub fn plan_forfeit(
        &self,
        seat: Seat,
        reason: Forfeit,
        move_id: Option<&str>,
    ) -> Result<Vec<NewEvent>, ApiError> {
        if self.is_over() {
            return Err(ApiError::FailedPrecondition(format!(
                "game {} is over",
                self.id
            )));
        }
        if self.lowest_open_seat().is_some() {
            return Err(ApiError::FailedPrecondition(format!(
                "game {} has not started: a seat is open",
                self.id
            )));
        }
        if self.game.state().is_out(seat) {
            return Err(ApiError::FailedPrecondition(format!(
                "seat {seat} is already out"
            )));
        }
        let kind = match reason {
            Forfeit::Resigned => kind::RESIGN,
            Forfeit::Timeout => kind::TIMEOUT,
        };
        let event = NewEvent::new(kind, json!(Payload { seat }));
        Ok(vec![match move_id {
            Some(id) => event.with_move_id(id),
            None => event,
        }])
    }

    /// Applies a stored `resign` or `timeout` event.
    pub(super) fn apply_forfeit(&mut self, event: &StoredEvent) -> Result<(), String> {
        let payload: Payload =
            serde_json::from_value(event.payload.clone()).map_err(|e| e.to_string())?;
        if payload.seat >= self.game.state().players() {
            return Err(format!("no seat {}", payload.seat));
        }
        if self.is_over() {
            return Err("a forfeit after the end".into());
        }
        let reason = if event.kind == kind::RESIGN {
            Forfeit::Resigned
        } else {
            Forfeit::Timeout
        };
        self.ending = Some(Ending {
            seat: payload.seat,
            reason,
            version: event.seq,
            at: event.created_at,
            move_id: event.move_id.clone(),
        });
        self.last_move = None;
        Ok(())
    }

    /// The resignation stored under this move id.
    pub fn resignation_by_id(&self, move_id: &str) -> Option<&Ending> {
        self.ending
            .as_ref()
            .filter(|e| e.move_id.as_deref() == Some(move_id))
    }

    /// Brings the clocks up to an event just applied.
    pub(super) fn tick_clocks(&mut self, event: &StoredEvent) {
        let running = self.running_clocks();
        let Some(clocks) = self.clocks.as_mut() else {
            return;
        };
        let actor = match event.kind.as_str() {
            kind::MOVE => Action::from_json(&event.payload["action"])
                .ok()
                .and_then(|a| match a {
                    Action::Move(m) => Some(m.seat),
                    Action::Shuffle(_) => None,
                }),
            _ => None,
        };
        clocks.advance(event.created_at, actor, running);
    }

    /// The seats whose clocks run now: none while a seat is open or once
    /// the game is over.
    pub fn running_clocks(&self) -> SeatSet {
        if self.is_over() || self.lowest_open_seat().is_some() {
            SeatSet::EMPTY
        } else {
            clock::clocked_seats(&self.game)
        }
    }
}

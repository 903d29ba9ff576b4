//! Planning and applying a forfeit ([`Forfeit`]): checked when planned,
//! so applying its stored event cannot fail.

use serde::{Deserialize, Serialize};
use serde_json::json;
use skit_api::ApiError;
use skit_engine::Seat;
use skit_store::{NewEvent, StoredEvent};

use super::ending::{Ending, Forfeit};
use super::{Live, kind};

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
        self.check_not_forfeited(seat)?;
        if self.is_over() {
            return Err(ApiError::failed_precondition(format!(
                "game {} is over",
                self.id
            )));
        }
        if self.lowest_open_seat().is_some() {
            return Err(ApiError::failed_precondition(format!(
                "game {} has not started: a seat is open",
                self.id
            )));
        }
        if self.game.state().is_out(seat) {
            return Err(ApiError::failed_precondition(format!(
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
}

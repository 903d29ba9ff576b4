//! A game an operator voided (AdminService.VoidGame): it ends at once with
//! no loser and no places, and is unrated whatever it was created as.

use super::ending::Void;
use super::{Live, kind};
use serde::{Deserialize, Serialize};
use serde_json::json;
use skit_api::ApiError;
use skit_store::{NewEvent, StoredEvent};

#[derive(Debug, Serialize, Deserialize)]
struct Payload {
    reason: String,
}

impl Live {
    /// The event voiding the game: refused once it is over, whose result
    /// then stands.
    pub fn plan_void(&self, reason: &str) -> Result<Vec<NewEvent>, ApiError> {
        if self.is_over() {
            return Err(ApiError::new(
                skit_api::ErrorCode::FailedPrecondition,
                "game_over",
                format!("game {} is over: its result stands", self.id),
            ));
        }
        let payload = Payload {
            reason: reason.to_owned(),
        };
        Ok(vec![NewEvent::new(kind::VOID, json!(payload))])
    }

    /// Applies a stored `void` event.
    pub(super) fn apply_void(&mut self, event: &StoredEvent) -> Result<(), String> {
        let payload: Payload =
            serde_json::from_value(event.payload.clone()).map_err(|e| e.to_string())?;
        if self.is_over() {
            return Err("a void after the end".into());
        }
        self.void = Some(Void {
            version: event.seq,
            at: event.created_at,
            reason: payload.reason,
        });
        self.rated = false;
        self.last_move = None;
        Ok(())
    }
}

//! Keeps the seats' clocks in step with every applied event.

use skit_engine::{Action, SeatSet};
use skit_store::StoredEvent;

use super::{Live, kind};
use crate::clock;

impl Live {
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

//! One game's append as a round takes it: the public request and its
//! answers, and the request borrowed for a round.

use crate::{Error, GameId, NewEvent, StoredEvent, ToAct};

/// One game's append: as the arguments of [`crate::Store::append`].
#[derive(Debug, Clone)]
pub struct AppendRequest {
    pub game_id: GameId,
    /// One past the last event the caller has seen.
    pub expected_seq: u64,
    pub events: Vec<NewEvent>,
    /// Who may act once the events are applied, for the turn index and
    /// the notice; `None`: not said (the index then says "look").
    pub to_act: Option<ToAct>,
}

/// Each request's answer, in request order.
pub type AppendResults = Vec<Result<Vec<StoredEvent>, Error>>;

/// A request borrowed for one round.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Append<'a> {
    pub game_id: GameId,
    pub expected_seq: u64,
    pub events: &'a [NewEvent],
    pub to_act: Option<&'a ToAct>,
}

impl AppendRequest {
    pub(crate) fn borrowed(&self) -> Append<'_> {
        Append {
            game_id: self.game_id,
            expected_seq: self.expected_seq,
            events: &self.events,
            to_act: self.to_act.as_ref(),
        }
    }
}

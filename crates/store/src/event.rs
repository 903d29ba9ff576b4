//! Events as the store sees them: a kind and an opaque JSON payload in a
//! per-game sequence. The rules live elsewhere.

use std::sync::Arc;

use serde_json::Value;
use time::OffsetDateTime;

use crate::{AccountId, GameId};

/// An event to append.
#[derive(Debug, Clone, PartialEq)]
pub struct NewEvent {
    pub kind: String,
    pub payload: Value,
    /// The client's idempotency key for the move behind this event, unique
    /// per game: a retried move is answered with the event already stored.
    pub move_id: Option<String>,
}

impl NewEvent {
    /// An event not caused by a client move (dealing, time-outs, ...).
    pub fn new(kind: impl Into<String>, payload: Value) -> Self {
        Self {
            kind: kind.into(),
            payload,
            move_id: None,
        }
    }

    /// The same event, tagged with the move id that produced it.
    pub fn with_move_id(mut self, move_id: impl Into<String>) -> Self {
        self.move_id = Some(move_id.into());
        self
    }
}

/// An event in the log. `seq` counts from 0 (the game's creation event)
/// without gaps.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredEvent {
    pub game_id: GameId,
    pub seq: u64,
    pub kind: String,
    pub payload: Value,
    pub move_id: Option<String>,
    pub created_at: OffsetDateTime,
}

/// A notice that a game's log grew; `seq` is its new last event. A game's
/// seats changing (a new game, a seat taken with JoinGame) is notified as
/// seq 0: its log did not grow, but who sits where did.
///
/// A hint to re-read, not the data: notices can be missed (a lagging
/// receiver, a dropped Postgres connection), so a subscriber loads events
/// from the last seq it knows rather than trusting it saw every notice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Appended {
    pub game_id: GameId,
    pub seq: u64,
    /// The accounts that may act once the append is applied (or, when it
    /// ends the game, every seated account), where the appender said
    /// ([`crate::ToAct`]); `None`: not said (a change of
    /// seats, or an append without it), so anyone seated may have a turn.
    pub to_act: Option<Arc<[AccountId]>>,
}

impl Appended {
    /// A notice that says nothing of whose turn it is.
    pub fn new(game_id: GameId, seq: u64) -> Self {
        Self {
            game_id,
            seq,
            to_act: None,
        }
    }

    /// Whether `account` may now have a turn in the game: it may act, or
    /// the notice does not say who may.
    pub fn may_concern(&self, account: AccountId) -> bool {
        self.to_act
            .as_ref()
            .is_none_or(|accounts| accounts.contains(&account))
    }
}

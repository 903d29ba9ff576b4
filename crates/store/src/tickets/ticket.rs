//! A matchmaker's ticket as the store keeps it: its id, its state, and
//! what its owner asked for.

use std::fmt;
use std::str::FromStr;

use serde_json::Value;
use time::OffsetDateTime;
use uuid::Uuid;

use crate::AccountId;

/// A ticket's id: a random UUID, stored as text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TicketId(pub Uuid);

impl TicketId {
    pub fn random() -> Self {
        Self(Uuid::new_v4())
    }
}

impl fmt::Display for TicketId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.hyphenated().fmt(f)
    }
}

impl FromStr for TicketId {
    type Err = uuid::Error;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Uuid::parse_str(s).map(Self)
    }
}

/// Where a ticket is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TicketState {
    /// Waiting for a table (possibly claimed by a planned match).
    Queued,
    /// Seated: `game_id` and `seat` are set.
    Matched,
    /// Withdrawn by its owner.
    Cancelled,
}

impl TicketState {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Queued => "queued",
            Self::Matched => "matched",
            Self::Cancelled => "cancelled",
        }
    }

    pub(crate) fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "queued" => Self::Queued,
            "matched" => Self::Matched,
            "cancelled" => Self::Cancelled,
            _ => return None,
        })
    }
}

/// A ticket to store.
#[derive(Debug, Clone, PartialEq)]
pub struct NewTicket {
    pub account_id: AccountId,
    /// Guests play unrated games only.
    pub guest: bool,
    /// The rules as enqueued (opaque to the store).
    pub rules: Value,
    pub ruleset_key: String,
    pub player_counts: Vec<u32>,
    pub allow_bots: bool,
    /// The owner's conservative rating under the key when enqueued.
    pub rating: f64,
    /// The owner's idempotency key, unique per account: a second enqueue
    /// with it finds this ticket ([`Enqueued::Requested`]).
    pub request_id: Option<String>,
}

/// A stored ticket.
#[derive(Debug, Clone, PartialEq)]
pub struct Ticket {
    pub id: TicketId,
    pub account_id: AccountId,
    /// The account's owner group ([`crate::Account::owner_group`]): no two
    /// tickets of one group share a table.
    pub owner_group: AccountId,
    pub guest: bool,
    pub rules: Value,
    pub ruleset_key: String,
    pub player_counts: Vec<u32>,
    pub allow_bots: bool,
    pub rating: f64,
    pub request_id: Option<String>,
    pub state: TicketState,
    /// The planned match that claimed this ticket, if any.
    pub match_id: Option<String>,
    /// Set once matched.
    pub game_id: Option<String>,
    pub seat: Option<u32>,
    pub created_at: OffsetDateTime,
    pub updated_at: OffsetDateTime,
}

impl Ticket {
    /// Queued and not claimed by a planned match: free to match or cancel.
    pub fn is_waiting(&self) -> bool {
        self.state == TicketState::Queued && self.match_id.is_none()
    }
}

/// The outcome of [`crate::Store::enqueue`].
#[derive(Debug, Clone, PartialEq)]
pub enum Enqueued {
    New(Ticket),
    /// The account already holds this queued ticket; nothing was stored.
    AlreadyQueued(Ticket),
    /// The account enqueued with this request id before: the ticket that
    /// created, as it is now (maybe matched or cancelled since); nothing
    /// was stored.
    Requested(Ticket),
}

//! The matchmaker's tickets: one account waiting for a table. Written with
//! the same SQL on both backends; a ticket is claimed by a planned match
//! (see [`crate::PlannedMatch`]) with a conditional UPDATE, so it can be in
//! at most one match, and a cancel races safely with a claim.

mod matches;
mod row;

use std::fmt;
use std::str::FromStr;

use serde_json::Value;
use sqlx::types::Json;
use time::OffsetDateTime;
use uuid::Uuid;

use crate::error::is_unique_violation;
use crate::{AccountId, Error, Store, rows};
pub use matches::{MatchSeat, PlannedMatch};
use row::{TicketRow, select_tickets};

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
}

/// A stored ticket.
#[derive(Debug, Clone, PartialEq)]
pub struct Ticket {
    pub id: TicketId,
    pub account_id: AccountId,
    pub guest: bool,
    pub rules: Value,
    pub ruleset_key: String,
    pub player_counts: Vec<u32>,
    pub allow_bots: bool,
    pub rating: f64,
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

/// The outcome of [`Store::enqueue`].
#[derive(Debug, Clone, PartialEq)]
pub enum Enqueued {
    New(Ticket),
    /// The account already holds this queued ticket; nothing was stored.
    AlreadyQueued(Ticket),
}

const INSERT_TICKET: &str = "INSERT INTO tickets (id, account_id, guest, rules, ruleset_key, \
     player_counts, allow_bots, rating, state, created_at, updated_at) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'queued', $9, $9)";

/// Only a waiting ticket is cancelled: a claimed one is being seated.
const CANCEL: &str = "UPDATE tickets SET state = 'cancelled', updated_at = $2 \
     WHERE id = $1 AND state = 'queued' AND match_id IS NULL";

impl Store {
    /// Stores a queued ticket, unless the account already holds one.
    #[tracing::instrument(skip_all, fields(account = ticket.account_id.0))]
    pub async fn enqueue(&self, ticket: NewTicket) -> Result<Enqueued, Error> {
        let id = TicketId::random();
        let params = (
            id.to_string(),
            ticket.account_id.0,
            ticket.guest,
            Json(&ticket.rules),
            &ticket.ruleset_key,
            Json(&ticket.player_counts),
            ticket.allow_bots,
            ticket.rating,
            rows::now(),
        );
        let inserted = {
            let _turn = self.db.write_turn().await;
            self.db.execute(INSERT_TICKET, params).await
        };
        match inserted {
            Ok(_) => {}
            Err(e) if is_unique_violation(&e) => {
                return match self.queued_of_account(ticket.account_id).await? {
                    Some(queued) => Ok(Enqueued::AlreadyQueued(queued)),
                    // Matched or cancelled in between: the caller may retry.
                    None => Err(Error::Invalid("the queued ticket changed; try again")),
                };
            }
            Err(e) => return Err(e.into()),
        }
        let stored = self.ticket(id).await?;
        stored
            .map(Enqueued::New)
            .ok_or_else(|| Error::Corrupt(format!("ticket {id} vanished")))
    }

    pub async fn ticket(&self, id: TicketId) -> Result<Option<Ticket>, Error> {
        let row: Option<TicketRow> = self
            .db
            .fetch_optional(select_tickets!("WHERE id = $1"), (id.to_string(),))
            .await?;
        row.map(TryInto::try_into).transpose()
    }

    /// Queued tickets no match has claimed, oldest first, at most `limit`.
    pub async fn waiting_tickets(&self, limit: u32) -> Result<Vec<Ticket>, Error> {
        let waiting = select_tickets!(
            "WHERE state = 'queued' AND match_id IS NULL ORDER BY created_at, id LIMIT $1"
        );
        let rows: Vec<TicketRow> = self.db.fetch_all(waiting, (i64::from(limit),)).await?;
        rows.into_iter().map(TryInto::try_into).collect()
    }

    /// Cancels a waiting ticket. Returns the ticket as it is afterwards
    /// (unchanged if it was matched, claimed or cancelled already); `None`
    /// for an unknown id.
    #[tracing::instrument(skip(self), fields(ticket_id = %id))]
    pub async fn cancel_ticket(&self, id: TicketId) -> Result<Option<Ticket>, Error> {
        {
            let _turn = self.db.write_turn().await;
            let params = (id.to_string(), rows::now());
            self.db.execute(CANCEL, params).await?;
        }
        self.ticket(id).await
    }

    async fn queued_of_account(&self, account: AccountId) -> Result<Option<Ticket>, Error> {
        let queued = select_tickets!("WHERE account_id = $1 AND state = 'queued'");
        let row: Option<TicketRow> = self.db.fetch_optional(queued, (account.0,)).await?;
        row.map(TryInto::try_into).transpose()
    }
}

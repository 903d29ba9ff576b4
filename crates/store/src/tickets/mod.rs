//! The matchmaker's tickets: one account waiting for a table. Written with
//! the same SQL on both backends; a ticket is claimed by a planned match
//! (see [`crate::PlannedMatch`]) with a conditional UPDATE, so it can be in
//! at most one match, and a cancel races safely with a claim.

mod matches;
mod row;
mod ticket;

use sqlx::types::Json;

use crate::error::is_unique_violation;
use crate::holdings::check_tickets;
use crate::{AccountId, Error, Store, rows};
pub use matches::{MatchSeat, PlannedMatch};
use row::{TicketRow, select_tickets};
pub use ticket::{Enqueued, NewTicket, Ticket, TicketId, TicketState};

const INSERT_TICKET: &str = "INSERT INTO tickets (id, account_id, guest, rules, ruleset_key, \
     player_counts, allow_bots, rating, state, created_at, updated_at, request_id) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'queued', $9, $9, $10)";

/// Only a waiting ticket is cancelled: a claimed one is being seated.
const CANCEL: &str = "UPDATE tickets SET state = 'cancelled', updated_at = $2 \
     WHERE id = $1 AND state = 'queued' AND match_id IS NULL";

impl Store {
    /// Stores a queued ticket, unless the account already enqueued with the
    /// ticket's request id or holds a queued ticket.
    pub async fn enqueue(&self, ticket: NewTicket) -> Result<Enqueued, Error> {
        self.enqueue_within(ticket, None).await
    }

    /// As [`Self::enqueue`], unless the account enqueued `tickets_per_hour`
    /// tickets in the last hour ([`Error::QuotaExceeded`], storing
    /// nothing): counted and stored in one transaction under the account's
    /// quota lock.
    #[tracing::instrument(skip_all, fields(account = ticket.account_id.0))]
    pub async fn enqueue_within(
        &self,
        ticket: NewTicket,
        tickets_per_hour: Option<u64>,
    ) -> Result<Enqueued, Error> {
        if let Some(first) = self.requested_ticket(&ticket).await? {
            return Ok(Enqueued::Requested(first));
        }
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
            ticket.request_id.as_deref(),
        );
        let mut tx = self.db.begin().await?;
        let account = ticket.account_id;
        check_tickets(&mut tx, self.db.dialect(), account, tickets_per_hour).await?;
        let inserted = tx.execute(INSERT_TICKET, params).await;
        match inserted {
            Ok(_) => tx.commit().await?,
            Err(e) if is_unique_violation(&e) => {
                tx.rollback().await?;
                // A concurrent twin of this request may have won.
                if let Some(first) = self.requested_ticket(&ticket).await? {
                    return Ok(Enqueued::Requested(first));
                }
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

    /// The ticket the account enqueued with `ticket`'s request id, if any.
    async fn requested_ticket(&self, ticket: &NewTicket) -> Result<Option<Ticket>, Error> {
        let Some(request_id) = &ticket.request_id else {
            return Ok(None);
        };
        let by_request = select_tickets!("WHERE account_id = $1 AND request_id = $2");
        let params = (ticket.account_id.0, request_id.as_str());
        let row: Option<TicketRow> = self.db.fetch_optional(by_request, params).await?;
        row.map(TryInto::try_into).transpose()
    }

    async fn queued_of_account(&self, account: AccountId) -> Result<Option<Ticket>, Error> {
        let queued = select_tickets!("WHERE account_id = $1 AND state = 'queued'");
        let row: Option<TicketRow> = self.db.fetch_optional(queued, (account.0,)).await?;
        row.map(TryInto::try_into).transpose()
    }
}

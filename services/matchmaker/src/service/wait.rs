//! Waiting for a ticket to change: GetTicket's long poll and WatchTicket.
//! A waiter wakes on this instance's change notices and re-reads the
//! ticket on a short timer as well, so a match made by another matchmaker
//! on the same database is seen too.

use std::time::Duration;

use skit_api::ApiError;
use skit_proto::v1::{GetTicketRequest, Ticket, TicketState, WatchTicketRequest};
use skit_store::TicketId;
use tokio::time::Instant;
use tokio_stream::wrappers::ReceiverStream;
use tonic::Status;

use super::{Caller, MatchmakingApi};
use crate::convert;
use crate::error::store_error;

/// Tickets buffered for a slow watcher.
const WATCH_BUFFER: usize = 4;

/// What a client sees change: the state, the game and the seat.
fn visible(t: &Ticket) -> (i32, Option<&String>, Option<u32>) {
    (t.state, t.game_id.as_ref(), t.seat)
}

fn is_final(t: &Ticket) -> bool {
    t.state != TicketState::Queued as i32
}

/// A ticket id this service wrote that does not read back.
fn not_a_ticket_id() -> ApiError {
    ApiError::invariant("a stored ticket id is not a UUID")
}

impl MatchmakingApi {
    #[tracing::instrument(skip_all, fields(ticket_id = %req.ticket_id, wait_ms = req.wait_ms))]
    pub(super) async fn get(
        &self,
        caller: Caller,
        req: GetTicketRequest,
    ) -> Result<Ticket, ApiError> {
        let ticket = convert::ticket(&self.owned(&caller, &req.ticket_id).await?);
        if req.wait_ms == 0 || is_final(&ticket) {
            return Ok(ticket);
        }
        let wait = Duration::from_millis(u64::from(req.wait_ms)).min(self.long_poll_cap);
        let id = ticket.ticket_id.parse().map_err(|_| not_a_ticket_id())?;
        Ok(self
            .next_change(id, &ticket, Some(Instant::now() + wait))
            .await?
            .unwrap_or(ticket))
    }

    /// The ticket once it differs from `seen`; `None` at the deadline.
    async fn next_change(
        &self,
        id: TicketId,
        seen: &Ticket,
        deadline: Option<Instant>,
    ) -> Result<Option<Ticket>, ApiError> {
        let mut notices = self.changes.subscribe();
        loop {
            notices.borrow_and_update();
            let now = self
                .store
                .ticket(id)
                .await
                .map_err(store_error)?
                .map(|t| convert::ticket(&t))
                .ok_or_else(|| ApiError::invariant("a watched ticket vanished from the store"))?;
            if visible(&now) != visible(seen) {
                return Ok(Some(now));
            }
            let deadline = deadline.unwrap_or_else(|| Instant::now() + self.recheck);
            if Instant::now() >= deadline {
                return Ok(None);
            }
            let recheck = Instant::now() + self.recheck;
            tokio::select! {
                _ = notices.changed() => {}
                () = tokio::time::sleep_until(recheck.min(deadline)) => {}
            }
        }
    }

    #[tracing::instrument(skip_all, fields(ticket_id = %req.ticket_id))]
    pub(super) async fn watch(
        &self,
        caller: Caller,
        req: WatchTicketRequest,
    ) -> Result<ReceiverStream<Result<Ticket, Status>>, ApiError> {
        let first = convert::ticket(&self.owned(&caller, &req.ticket_id).await?);
        let id: TicketId = first.ticket_id.parse().map_err(|_| not_a_ticket_id())?;
        let (tx, rx) = tokio::sync::mpsc::channel(WATCH_BUFFER);
        let api = self.clone();
        tokio::spawn(async move {
            let mut last = first;
            if tx.send(Ok(last.clone())).await.is_err() {
                return;
            }
            while !is_final(&last) {
                let next = tokio::select! {
                    next = api.next_change(id, &last, None) => next,
                    () = tx.closed() => return,
                };
                match next {
                    Ok(Some(ticket)) => {
                        last = ticket;
                        if tx.send(Ok(last.clone())).await.is_err() {
                            return;
                        }
                    }
                    Ok(None) => {}
                    Err(e) => {
                        // Best effort: the watcher may be gone.
                        let _ = tx.send(Err(e.into())).await;
                        return;
                    }
                }
            }
        });
        Ok(ReceiverStream::new(rx))
    }
}

//! MatchmakingService: the trait methods authenticate (WhoAmI at the game
//! service) and delegate; enqueueing is in `enqueue`, waiting for changes
//! in `wait`.

mod enqueue;
mod wait;

use std::sync::Arc;
use std::time::Duration;

use skit_api::ApiError;
use skit_proto::v1::matchmaking_service_server::MatchmakingService;
use skit_proto::v1::{
    AccountKind, CancelTicketRequest, EnqueueRequest, GetTicketRequest, Ticket, WatchTicketRequest,
};
use skit_store::{Store, TicketId, TicketState};
use tokio::sync::Notify;
use tokio_stream::wrappers::ReceiverStream;
use tonic::{Request, Response, Status};

use crate::changes::Changes;
use crate::convert;
use crate::error::store_error;
pub(crate) use skit_gateway::game_client::Caller;
use skit_gateway::game_client::GameClient;

#[derive(Debug, Clone)]
pub struct MatchmakingApi {
    pub(crate) store: Store,
    pub(crate) game: GameClient,
    pub(crate) changes: Changes,
    /// Wakes the matching loop.
    pub(crate) wake: Arc<Notify>,
    pub(crate) long_poll_cap: Duration,
    pub(crate) recheck: Duration,
    /// Tickets an account (not the operator) may enqueue per hour.
    pub(crate) tickets_per_hour: Option<u64>,
}

fn ticket_id(text: &str) -> Result<TicketId, ApiError> {
    text.parse()
        .map_err(|_| ApiError::invalid("ticket_id", "not a ticket id (a UUID)"))
}

impl MatchmakingApi {
    /// The caller, if its credential has `scope` (`play` to queue and
    /// cancel, `read` to look at tickets; PERMISSION_DENIED `missing_scope`
    /// otherwise).
    async fn caller<T>(&self, request: &Request<T>, scope: &str) -> Result<Caller, ApiError> {
        let caller = self.game.identify(request.metadata()).await?;
        if !caller.has_scope(scope) {
            return Err(ApiError::missing_scope(scope));
        }
        Ok(caller)
    }

    /// The ticket, if the caller owns it (operators see every ticket).
    async fn owned(&self, caller: &Caller, id: &str) -> Result<skit_store::Ticket, ApiError> {
        let id = ticket_id(id)?;
        let ticket = self
            .store
            .ticket(id)
            .await
            .map_err(store_error)?
            .ok_or_else(|| ApiError::not_found(format!("no ticket {id}")))?;
        if ticket.account_id.0 != caller.account_id && caller.kind != AccountKind::Operator {
            return Err(ApiError::permission_denied(format!(
                "ticket {id} is not yours"
            )));
        }
        Ok(ticket)
    }

    #[tracing::instrument(skip_all, fields(ticket_id = %req.ticket_id, account = caller.account_id))]
    async fn cancel(&self, caller: Caller, req: CancelTicketRequest) -> Result<Ticket, ApiError> {
        let ticket = self.owned(&caller, &req.ticket_id).await?;
        let after = match ticket.state {
            TicketState::Queued => self
                .store
                .cancel_ticket(ticket.id)
                .await
                .map_err(store_error)?
                .ok_or_else(|| ApiError::invariant("a queued ticket could not be cancelled"))?,
            TicketState::Matched | TicketState::Cancelled => ticket,
        };
        match after.state {
            TicketState::Cancelled => {
                self.changes.bump();
                Ok(convert::ticket(&after))
            }
            TicketState::Matched => Err(ApiError::failed_precondition(format!(
                "ticket {} is already matched (game {})",
                after.id,
                after.game_id.as_deref().unwrap_or("?")
            ))),
            TicketState::Queued => Err(ApiError::failed_precondition(format!(
                "ticket {} is being seated at a table",
                after.id
            ))),
        }
    }
}

/// Credentials as the REST face checks them before refusing a request's
/// content: as every call checks them.
#[tonic::async_trait]
impl skit_gateway::Authenticate for MatchmakingApi {
    async fn authenticate(&self, metadata: tonic::metadata::MetadataMap) -> Result<(), Status> {
        self.game
            .identify(&metadata)
            .await
            .map(|_| ())
            .map_err(Status::from)
    }
}

#[tonic::async_trait]
impl MatchmakingService for MatchmakingApi {
    async fn enqueue(&self, request: Request<EnqueueRequest>) -> Result<Response<Ticket>, Status> {
        let caller = self.caller(&request, "play").await?;
        Ok(Response::new(
            self.enqueue_ticket(caller, request.into_inner()).await?,
        ))
    }

    async fn cancel_ticket(
        &self,
        request: Request<CancelTicketRequest>,
    ) -> Result<Response<Ticket>, Status> {
        let caller = self.caller(&request, "play").await?;
        Ok(Response::new(
            self.cancel(caller, request.into_inner()).await?,
        ))
    }

    async fn get_ticket(
        &self,
        request: Request<GetTicketRequest>,
    ) -> Result<Response<Ticket>, Status> {
        let caller = self.caller(&request, "read").await?;
        Ok(Response::new(self.get(caller, request.into_inner()).await?))
    }

    type WatchTicketStream = ReceiverStream<Result<Ticket, Status>>;

    async fn watch_ticket(
        &self,
        request: Request<WatchTicketRequest>,
    ) -> Result<Response<Self::WatchTicketStream>, Status> {
        let caller = self.caller(&request, "read").await?;
        Ok(Response::new(
            self.watch(caller, request.into_inner()).await?,
        ))
    }
}

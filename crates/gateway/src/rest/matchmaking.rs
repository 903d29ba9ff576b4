//! The MatchmakingService routes (the matchmaker's own port): enqueue,
//! cancel, a ticket (with its long poll) and a ticket's changes as
//! Server-Sent Events.

use std::{convert::Infallible, sync::Arc};

use axum::{
    Router,
    extract::{Path, RawQuery, State},
    http::HeaderMap,
    response::sse::{Event, KeepAlive, Sse},
    routing::{get, post},
};
use futures_util::Stream;
use skit_proto::v1::{
    CancelTicketRequest, EnqueueRequest, GetTicketRequest, Ticket, WatchTicketRequest,
    matchmaking_service_server::MatchmakingService,
};

use super::reply::reply;
use super::watch;
use crate::{
    error::RestError,
    extract::{ProtoJson, grpc_request},
    json::JsonBody,
    query::QueryDecoder,
};

pub(super) struct MatchmakingState<M> {
    service: Arc<M>,
    queries: Arc<QueryDecoder>,
}

// Derived Clone would demand `M: Clone`; only the Arcs are cloned.
impl<M> Clone for MatchmakingState<M> {
    fn clone(&self) -> Self {
        Self {
            service: self.service.clone(),
            queries: self.queries.clone(),
        }
    }
}

pub(super) fn routes<M: MatchmakingService>(service: Arc<M>, queries: Arc<QueryDecoder>) -> Router {
    Router::new()
        .route("/v1/tickets", post(enqueue::<M>))
        .route("/v1/tickets/{ticket_id}", get(get_ticket::<M>))
        .route("/v1/tickets/{ticket_id}/cancel", post(cancel_ticket::<M>))
        .route("/v1/tickets/{ticket_id}/watch", get(watch_ticket::<M>))
        .with_state(MatchmakingState { service, queries })
}

async fn enqueue<M: MatchmakingService>(
    State(state): State<MatchmakingState<M>>,
    headers: HeaderMap,
    ProtoJson(body): ProtoJson<EnqueueRequest>,
) -> Result<JsonBody<Ticket>, RestError> {
    reply(state.service.enqueue(grpc_request(&headers, body)).await)
}

async fn cancel_ticket<M: MatchmakingService>(
    State(state): State<MatchmakingState<M>>,
    Path(ticket_id): Path<String>,
    headers: HeaderMap,
    ProtoJson(mut body): ProtoJson<CancelTicketRequest>,
) -> Result<JsonBody<Ticket>, RestError> {
    body.ticket_id = ticket_id;
    reply(
        state
            .service
            .cancel_ticket(grpc_request(&headers, body))
            .await,
    )
}

async fn get_ticket<M: MatchmakingService>(
    State(state): State<MatchmakingState<M>>,
    Path(ticket_id): Path<String>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Result<JsonBody<Ticket>, RestError> {
    let mut message: GetTicketRequest = state
        .queries
        .decode("skitgubbe.v1.GetTicketRequest", query.as_deref())?;
    message.ticket_id = ticket_id;
    reply(
        state
            .service
            .get_ticket(grpc_request(&headers, message))
            .await,
    )
}

/// The ticket now and on every change; the stream ends once it is matched
/// or cancelled.
async fn watch_ticket<M: MatchmakingService>(
    State(state): State<MatchmakingState<M>>,
    Path(ticket_id): Path<String>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, RestError> {
    let mut message: WatchTicketRequest = state
        .queries
        .decode("skitgubbe.v1.WatchTicketRequest", query.as_deref())?;
    message.ticket_id = ticket_id;
    let tickets = state
        .service
        .watch_ticket(grpc_request(&headers, message))
        .await?
        .into_inner();
    let no_id = |_: &Ticket| None;
    Ok(Sse::new(watch::events(tickets, no_id)).keep_alive(KeepAlive::default()))
}

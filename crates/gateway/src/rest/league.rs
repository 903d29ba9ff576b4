//! The LeagueService routes (the tournament service's own port), under
//! `/v1/tournaments`. WatchTournament is Server-Sent Events: an event's
//! `id` is its sequence number, so a reconnecting `EventSource` resumes
//! after `Last-Event-ID`.
//!
//! Every route but CreateTournament and ListTournaments names its
//! tournament in the path, which replaces the message's `tournament_id`;
//! those handlers are written by `tournament_body!` and
//! `tournament_query!`, one per RPC.

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
    AuditRoundRequest, AuditRoundResponse, ConstrainSeatingRequest, CreateTournamentRequest,
    EditTournamentRequest, EnterTournamentRequest, Entry, GetStandingsRequest,
    GetTournamentRequest, LeaveTournamentRequest, ListEntriesRequest, ListEntriesResponse,
    ListTablesRequest, ListTablesResponse, ListTournamentsRequest, ListTournamentsResponse,
    PauseTournamentRequest, PreviewRoundRequest, PreviewRoundResponse, ResumeTournamentRequest,
    Standings, StartTournamentRequest, TerminateTournamentRequest, Tournament, TournamentEvent,
    WatchTournamentRequest, league_service_server::LeagueService,
};

use super::reply::reply;
use super::watch;
use crate::{
    error::RestError,
    extract::{ProtoJson, grpc_request},
    json::JsonBody,
    query::QueryDecoder,
};

pub(super) struct LeagueState<L> {
    service: Arc<L>,
    queries: Arc<QueryDecoder>,
}

// Derived Clone would demand `L: Clone`; only the Arcs are cloned.
impl<L> Clone for LeagueState<L> {
    fn clone(&self) -> Self {
        Self {
            service: self.service.clone(),
            queries: self.queries.clone(),
        }
    }
}

pub(super) fn routes<L: LeagueService>(service: Arc<L>, queries: Arc<QueryDecoder>) -> Router {
    Router::new()
        .route(
            "/v1/tournaments",
            post(create_tournament::<L>).get(list_tournaments::<L>),
        )
        .route("/v1/tournaments/{tournament_id}", get(get_tournament::<L>))
        .route(
            "/v1/tournaments/{tournament_id}/enter",
            post(enter_tournament::<L>),
        )
        .route(
            "/v1/tournaments/{tournament_id}/leave",
            post(leave_tournament::<L>),
        )
        .route(
            "/v1/tournaments/{tournament_id}/entries",
            get(list_entries::<L>),
        )
        .route(
            "/v1/tournaments/{tournament_id}/standings",
            get(get_standings::<L>),
        )
        .route(
            "/v1/tournaments/{tournament_id}/tables",
            get(list_tables::<L>),
        )
        .route(
            "/v1/tournaments/{tournament_id}/watch",
            get(watch_tournament::<L>),
        )
        .route(
            "/v1/tournaments/{tournament_id}/start",
            post(start_tournament::<L>),
        )
        .route(
            "/v1/tournaments/{tournament_id}/preview",
            get(preview_round::<L>),
        )
        .route(
            "/v1/tournaments/{tournament_id}/seating",
            post(constrain_seating::<L>),
        )
        .route(
            "/v1/tournaments/{tournament_id}/audit",
            get(audit_round::<L>),
        )
        .route(
            "/v1/tournaments/{tournament_id}/edit",
            post(edit_tournament::<L>),
        )
        .route(
            "/v1/tournaments/{tournament_id}/pause",
            post(pause_tournament::<L>),
        )
        .route(
            "/v1/tournaments/{tournament_id}/resume",
            post(resume_tournament::<L>),
        )
        .route(
            "/v1/tournaments/{tournament_id}/terminate",
            post(terminate_tournament::<L>),
        )
        .with_state(LeagueState { service, queries })
}

async fn create_tournament<L: LeagueService>(
    State(state): State<LeagueState<L>>,
    headers: HeaderMap,
    ProtoJson(body): ProtoJson<CreateTournamentRequest>,
) -> Result<JsonBody<Tournament>, RestError> {
    let request = grpc_request(&headers, body);
    reply(state.service.create_tournament(request).await)
}

async fn list_tournaments<L: LeagueService>(
    State(state): State<LeagueState<L>>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Result<JsonBody<ListTournamentsResponse>, RestError> {
    let message: ListTournamentsRequest = state
        .queries
        .decode("skitgubbe.v1.ListTournamentsRequest", query.as_deref())?;
    let request = grpc_request(&headers, message);
    reply(state.service.list_tournaments(request).await)
}

/// A `POST` handler named as its RPC's method: the JSON body with the
/// tournament from the path.
macro_rules! tournament_body {
    ($($rpc:ident($request:ident) -> $response:ident;)*) => {$(
        async fn $rpc<L: LeagueService>(
            State(state): State<LeagueState<L>>,
            Path(tournament_id): Path<String>,
            headers: HeaderMap,
            ProtoJson(mut body): ProtoJson<$request>,
        ) -> Result<JsonBody<$response>, RestError> {
            body.tournament_id = tournament_id;
            reply(state.service.$rpc(grpc_request(&headers, body)).await)
        }
    )*};
}

/// A `GET` handler named as its RPC's method: the query string with the
/// tournament from the path.
macro_rules! tournament_query {
    ($($rpc:ident($request:ident) -> $response:ident;)*) => {$(
        async fn $rpc<L: LeagueService>(
            State(state): State<LeagueState<L>>,
            Path(tournament_id): Path<String>,
            RawQuery(query): RawQuery,
            headers: HeaderMap,
        ) -> Result<JsonBody<$response>, RestError> {
            let mut message: $request = state.queries.decode(
                concat!("skitgubbe.v1.", stringify!($request)),
                query.as_deref(),
            )?;
            message.tournament_id = tournament_id;
            reply(state.service.$rpc(grpc_request(&headers, message)).await)
        }
    )*};
}

tournament_body! {
    enter_tournament(EnterTournamentRequest) -> Entry;
    leave_tournament(LeaveTournamentRequest) -> Entry;
    start_tournament(StartTournamentRequest) -> Tournament;
    constrain_seating(ConstrainSeatingRequest) -> Tournament;
    edit_tournament(EditTournamentRequest) -> Tournament;
    pause_tournament(PauseTournamentRequest) -> Tournament;
    resume_tournament(ResumeTournamentRequest) -> Tournament;
    terminate_tournament(TerminateTournamentRequest) -> Tournament;
}

tournament_query! {
    get_tournament(GetTournamentRequest) -> Tournament;
    list_entries(ListEntriesRequest) -> ListEntriesResponse;
    get_standings(GetStandingsRequest) -> Standings;
    list_tables(ListTablesRequest) -> ListTablesResponse;
    preview_round(PreviewRoundRequest) -> PreviewRoundResponse;
    audit_round(AuditRoundRequest) -> AuditRoundResponse;
}

/// The tournament's events after `afterSequence` (or, when the query does
/// not set it, after the `Last-Event-ID` a reconnecting EventSource sends),
/// then as they happen, until the tournament ends.
async fn watch_tournament<L: LeagueService>(
    State(state): State<LeagueState<L>>,
    Path(tournament_id): Path<String>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, RestError> {
    let mut message: WatchTournamentRequest = state
        .queries
        .decode("skitgubbe.v1.WatchTournamentRequest", query.as_deref())?;
    message.tournament_id = tournament_id;
    if message.after_sequence == 0 {
        message.after_sequence = last_event_id(&headers).unwrap_or_default();
    }
    let events = state
        .service
        .watch_tournament(grpc_request(&headers, message))
        .await?
        .into_inner();
    let id = |event: &TournamentEvent| Some(event.sequence.to_string());
    Ok(Sse::new(watch::events(events, id)).keep_alive(KeepAlive::default()))
}

/// The sequence number a reconnecting EventSource last saw; one that is
/// not a number is ignored, as the game service's watch route does.
fn last_event_id(headers: &HeaderMap) -> Option<u64> {
    headers
        .get("last-event-id")?
        .to_str()
        .ok()?
        .trim()
        .parse()
        .ok()
}

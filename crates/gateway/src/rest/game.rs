//! The GameService routes. WatchGame is Server-Sent Events: a View's `id`
//! is its version, so a reconnecting `EventSource` resumes from
//! `Last-Event-ID`.

use std::{convert::Infallible, sync::Arc};

use axum::{
    Extension, Router,
    extract::{Path, RawQuery, State},
    http::HeaderMap,
    response::sse::{Event, KeepAlive, Sse},
    routing::{get, post},
};
use futures_util::{Stream, StreamExt};
use skit_proto::v1::{
    CreateGameRequest, CreateGameResponse, GetHistoryRequest, GetHistoryResponse, GetViewRequest,
    JoinGameRequest, JoinGameResponse, ListGamesRequest, ListGamesResponse, ResignRequest,
    ResignResponse, SubmitMoveRequest, SubmitMoveResponse, View, WatchGameRequest,
    game_service_server::GameService,
};

use super::reply::reply;
use super::watch;
use crate::{
    error::RestError,
    extract::{ProtoJson, grpc_request},
    json::JsonBody,
    query::QueryDecoder,
    shared::SharedWatch,
};

/// What the game handlers share.
struct GameState<G> {
    service: Arc<G>,
    queries: Arc<QueryDecoder>,
}

// Derived Clone would demand `G: Clone`; only the Arcs are cloned.
impl<G> Clone for GameState<G> {
    fn clone(&self) -> Self {
        Self {
            service: self.service.clone(),
            queries: self.queries.clone(),
        }
    }
}

pub(super) fn routes<G: GameService>(service: Arc<G>, queries: Arc<QueryDecoder>) -> Router {
    Router::new()
        .route("/v1/games", post(create_game::<G>).get(list_games::<G>))
        .route("/v1/games/{game_id}/join", post(join_game::<G>))
        .route("/v1/games/{game_id}/moves", post(submit_move::<G>))
        .route("/v1/games/{game_id}/resign", post(resign::<G>))
        .route("/v1/games/{game_id}/view", get(get_view::<G>))
        .route("/v1/games/{game_id}/watch", get(watch_game::<G>))
        .route("/v1/games/{game_id}/history", get(get_history::<G>))
        .with_state(GameState { service, queries })
}

async fn create_game<G: GameService>(
    State(state): State<GameState<G>>,
    headers: HeaderMap,
    ProtoJson(body): ProtoJson<CreateGameRequest>,
) -> Result<JsonBody<CreateGameResponse>, RestError> {
    reply(
        state
            .service
            .create_game(grpc_request(&headers, body))
            .await,
    )
}

async fn join_game<G: GameService>(
    State(state): State<GameState<G>>,
    Path(game_id): Path<String>,
    headers: HeaderMap,
    ProtoJson(mut body): ProtoJson<JoinGameRequest>,
) -> Result<JsonBody<JoinGameResponse>, RestError> {
    body.game_id = game_id;
    reply(state.service.join_game(grpc_request(&headers, body)).await)
}

async fn submit_move<G: GameService>(
    State(state): State<GameState<G>>,
    Path(game_id): Path<String>,
    headers: HeaderMap,
    ProtoJson(mut body): ProtoJson<SubmitMoveRequest>,
) -> Result<JsonBody<SubmitMoveResponse>, RestError> {
    body.game_id = game_id;
    reply(
        state
            .service
            .submit_move(grpc_request(&headers, body))
            .await,
    )
}

async fn resign<G: GameService>(
    State(state): State<GameState<G>>,
    Path(game_id): Path<String>,
    headers: HeaderMap,
    ProtoJson(mut body): ProtoJson<ResignRequest>,
) -> Result<JsonBody<ResignResponse>, RestError> {
    body.game_id = game_id;
    reply(state.service.resign(grpc_request(&headers, body)).await)
}

async fn get_view<G: GameService>(
    State(state): State<GameState<G>>,
    Path(game_id): Path<String>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Result<JsonBody<View>, RestError> {
    let mut message: GetViewRequest = state
        .queries
        .decode("skitgubbe.v1.GetViewRequest", query.as_deref())?;
    message.game_id = game_id;
    reply(
        state
            .service
            .get_view(grpc_request(&headers, message))
            .await,
    )
}

async fn list_games<G: GameService>(
    State(state): State<GameState<G>>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Result<JsonBody<ListGamesResponse>, RestError> {
    let message: ListGamesRequest = state
        .queries
        .decode("skitgubbe.v1.ListGamesRequest", query.as_deref())?;
    reply(
        state
            .service
            .list_games(grpc_request(&headers, message))
            .await,
    )
}

async fn get_history<G: GameService>(
    State(state): State<GameState<G>>,
    Path(game_id): Path<String>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Result<JsonBody<GetHistoryResponse>, RestError> {
    let mut message: GetHistoryRequest = state
        .queries
        .decode("skitgubbe.v1.GetHistoryRequest", query.as_deref())?;
    message.game_id = game_id;
    reply(
        state
            .service
            .get_history(grpc_request(&headers, message))
            .await,
    )
}

async fn watch_game<G: GameService>(
    State(state): State<GameState<G>>,
    Path(game_id): Path<String>,
    RawQuery(query): RawQuery,
    shared: Option<Extension<Arc<dyn SharedWatch>>>,
    headers: HeaderMap,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, RestError> {
    let mut message: WatchGameRequest = state
        .queries
        .decode("skitgubbe.v1.WatchGameRequest", query.as_deref())?;
    message.game_id = game_id;
    if message.from_version.is_none() {
        message.from_version = last_event_id(&headers);
    }
    let request = grpc_request(&headers, message);
    let events = match shared {
        // Each view's JSON is written once, whoever watches it.
        Some(Extension(shared)) => {
            watch::shared_events(shared.watch_shared(request).await?).boxed()
        }
        None => {
            let views = state.service.watch_game(request).await?.into_inner();
            let id = |view: &View| Some(view.version.to_string());
            watch::events(views, id).boxed()
        }
    };
    Ok(Sse::new(events).keep_alive(KeepAlive::default()))
}

/// The version a reconnecting EventSource last saw.
fn last_event_id(headers: &HeaderMap) -> Option<u64> {
    headers
        .get("last-event-id")?
        .to_str()
        .ok()?
        .trim()
        .parse()
        .ok()
}

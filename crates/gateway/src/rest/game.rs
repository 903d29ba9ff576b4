//! The GameService routes.

use std::sync::Arc;

use axum::{
    Json, Router,
    extract::{Path, RawQuery, State},
    http::HeaderMap,
    routing::{get, post},
};
use skit_proto::v1::{
    CreateGameRequest, CreateGameResponse, GetHistoryRequest, GetHistoryResponse, GetViewRequest,
    JoinGameRequest, JoinGameResponse, ListGamesRequest, ListGamesResponse, ResignRequest,
    ResignResponse, SubmitMoveRequest, SubmitMoveResponse, View, game_service_server::GameService,
};

use super::{reply, watch};
use crate::{
    error::ApiError,
    extract::{ProtoJson, grpc_request},
    query::QueryDecoder,
};

/// What the game handlers share.
pub(super) struct GameState<G> {
    pub(super) service: Arc<G>,
    pub(super) queries: Arc<QueryDecoder>,
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
        .route("/v1/games/{game_id}/watch", get(watch::watch_game::<G>))
        .route("/v1/games/{game_id}/history", get(get_history::<G>))
        .with_state(GameState { service, queries })
}

async fn create_game<G: GameService>(
    State(state): State<GameState<G>>,
    headers: HeaderMap,
    ProtoJson(body): ProtoJson<CreateGameRequest>,
) -> Result<Json<CreateGameResponse>, ApiError> {
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
) -> Result<Json<JoinGameResponse>, ApiError> {
    body.game_id = game_id;
    reply(state.service.join_game(grpc_request(&headers, body)).await)
}

async fn submit_move<G: GameService>(
    State(state): State<GameState<G>>,
    Path(game_id): Path<String>,
    headers: HeaderMap,
    ProtoJson(mut body): ProtoJson<SubmitMoveRequest>,
) -> Result<Json<SubmitMoveResponse>, ApiError> {
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
) -> Result<Json<ResignResponse>, ApiError> {
    body.game_id = game_id;
    reply(state.service.resign(grpc_request(&headers, body)).await)
}

async fn get_view<G: GameService>(
    State(state): State<GameState<G>>,
    Path(game_id): Path<String>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Result<Json<View>, ApiError> {
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
) -> Result<Json<ListGamesResponse>, ApiError> {
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
) -> Result<Json<GetHistoryResponse>, ApiError> {
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

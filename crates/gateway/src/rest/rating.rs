//! The RatingService routes: queries (`rules` as JSON text, e.g.
//! `?rules={"preset":"mas"}`), but for CreateSeason and StepDown, a JSON
//! body.

use std::sync::Arc;

use axum::{
    Router,
    extract::{Path, RawQuery, State},
    http::HeaderMap,
    routing::{get, post},
};
use skit_proto::v1::{
    CreateSeasonRequest, Division, GetDivisionRequest, GetLeaderboardRequest,
    GetLeaderboardResponse, GetRatingHistoryRequest, GetRatingHistoryResponse, GetRatingsRequest,
    GetRatingsResponse, GetSeasonStandingsRequest, ListSeasonsRequest, ListSeasonsResponse, Season,
    SeasonStandings, StepDownRequest, rating_service_server::RatingService,
};

use super::reply::reply;
use crate::{
    error::RestError,
    extract::{ProtoJson, grpc_request},
    json::JsonBody,
    query::QueryDecoder,
};

pub(super) struct RatingState<R> {
    service: Arc<R>,
    queries: Arc<QueryDecoder>,
}

// Derived Clone would demand `R: Clone`; only the Arcs are cloned.
impl<R> Clone for RatingState<R> {
    fn clone(&self) -> Self {
        Self {
            service: self.service.clone(),
            queries: self.queries.clone(),
        }
    }
}

pub(super) fn routes<R: RatingService>(service: Arc<R>, queries: Arc<QueryDecoder>) -> Router {
    Router::new()
        .route("/v1/ratings", get(get_ratings::<R>))
        .route("/v1/ratings/history", get(get_rating_history::<R>))
        .route("/v1/leaderboard", get(get_leaderboard::<R>))
        .route(
            "/v1/seasons",
            get(list_seasons::<R>).post(create_season::<R>),
        )
        .route(
            "/v1/seasons/{season_id}/standings",
            get(get_season_standings::<R>),
        )
        .route("/v1/seasons/{season_id}/division", get(get_division::<R>))
        .route("/v1/seasons/{season_id}/step-down", post(step_down::<R>))
        .with_state(RatingState { service, queries })
}

async fn get_ratings<R: RatingService>(
    State(state): State<RatingState<R>>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Result<JsonBody<GetRatingsResponse>, RestError> {
    let message: GetRatingsRequest = state
        .queries
        .decode("skitgubbe.v1.GetRatingsRequest", query.as_deref())?;
    reply(
        state
            .service
            .get_ratings(grpc_request(&headers, message))
            .await,
    )
}

async fn get_rating_history<R: RatingService>(
    State(state): State<RatingState<R>>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Result<JsonBody<GetRatingHistoryResponse>, RestError> {
    let message: GetRatingHistoryRequest = state
        .queries
        .decode("skitgubbe.v1.GetRatingHistoryRequest", query.as_deref())?;
    reply(
        state
            .service
            .get_rating_history(grpc_request(&headers, message))
            .await,
    )
}

async fn get_leaderboard<R: RatingService>(
    State(state): State<RatingState<R>>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Result<JsonBody<GetLeaderboardResponse>, RestError> {
    let message: GetLeaderboardRequest = state
        .queries
        .decode("skitgubbe.v1.GetLeaderboardRequest", query.as_deref())?;
    reply(
        state
            .service
            .get_leaderboard(grpc_request(&headers, message))
            .await,
    )
}

async fn create_season<R: RatingService>(
    State(state): State<RatingState<R>>,
    headers: HeaderMap,
    ProtoJson(body): ProtoJson<CreateSeasonRequest>,
) -> Result<JsonBody<Season>, RestError> {
    reply(
        state
            .service
            .create_season(grpc_request(&headers, body))
            .await,
    )
}

async fn list_seasons<R: RatingService>(
    State(state): State<RatingState<R>>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Result<JsonBody<ListSeasonsResponse>, RestError> {
    let message: ListSeasonsRequest = state
        .queries
        .decode("skitgubbe.v1.ListSeasonsRequest", query.as_deref())?;
    reply(
        state
            .service
            .list_seasons(grpc_request(&headers, message))
            .await,
    )
}

/// The season from the path replaces the query's `season_id`.
async fn get_season_standings<R: RatingService>(
    State(state): State<RatingState<R>>,
    Path(season_id): Path<String>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Result<JsonBody<SeasonStandings>, RestError> {
    let mut message: GetSeasonStandingsRequest = state
        .queries
        .decode("skitgubbe.v1.GetSeasonStandingsRequest", query.as_deref())?;
    message.season_id = season_id;
    reply(
        state
            .service
            .get_season_standings(grpc_request(&headers, message))
            .await,
    )
}

/// The season from the path replaces the query's `season_id`.
async fn get_division<R: RatingService>(
    State(state): State<RatingState<R>>,
    Path(season_id): Path<String>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Result<JsonBody<Division>, RestError> {
    let mut message: GetDivisionRequest = state
        .queries
        .decode("skitgubbe.v1.GetDivisionRequest", query.as_deref())?;
    message.season_id = season_id;
    reply(
        state
            .service
            .get_division(grpc_request(&headers, message))
            .await,
    )
}

async fn step_down<R: RatingService>(
    State(state): State<RatingState<R>>,
    Path(season_id): Path<String>,
    headers: HeaderMap,
    ProtoJson(mut body): ProtoJson<StepDownRequest>,
) -> Result<JsonBody<Division>, RestError> {
    body.season_id = season_id;
    reply(state.service.step_down(grpc_request(&headers, body)).await)
}

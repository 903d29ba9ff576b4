//! The RatingService routes: all queries (`rules` as JSON text, e.g.
//! `?rules={"preset":"mas"}`).

use std::sync::Arc;

use axum::{
    Router,
    extract::{RawQuery, State},
    http::HeaderMap,
    routing::get,
};
use skit_proto::v1::{
    GetLeaderboardRequest, GetLeaderboardResponse, GetRatingHistoryRequest,
    GetRatingHistoryResponse, GetRatingsRequest, GetRatingsResponse,
    rating_service_server::RatingService,
};

use super::reply::reply;
use crate::{error::RestError, extract::grpc_request, json::JsonBody, query::QueryDecoder};

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

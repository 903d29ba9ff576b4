//! The AccountService's credential routes: sessions (refresh, logout, the
//! caller's sessions) and API keys, as `routes.rs` lists them.

use std::sync::Arc;

use axum::{
    Router,
    extract::{Path, RawQuery, State},
    http::HeaderMap,
    routing::{get, post},
};
use skit_proto::v1::{
    CreateApiKeyRequest, CreateApiKeyResponse, ListApiKeysRequest, ListApiKeysResponse,
    ListSessionsRequest, ListSessionsResponse, LogoutRequest, LogoutResponse, RefreshRequest,
    RevokeApiKeyRequest, RevokeApiKeyResponse, RevokeSessionRequest, RevokeSessionResponse,
    RotateApiKeyRequest, Session, account_service_server::AccountService,
};

use super::account::AccountState;
use super::reply::reply;
use crate::{
    error::RestError,
    extract::{ProtoJson, grpc_request},
    json::JsonBody,
    query::QueryDecoder,
};

pub(super) fn routes<A: AccountService>(service: Arc<A>, queries: Arc<QueryDecoder>) -> Router {
    Router::new()
        .route("/v1/accounts/refresh", post(refresh::<A>))
        .route("/v1/accounts/logout", post(logout::<A>))
        .route("/v1/accounts/me/sessions", get(list_sessions::<A>))
        .route(
            "/v1/accounts/me/sessions/{session_id}/revoke",
            post(revoke_session::<A>),
        )
        .route(
            "/v1/accounts/me/api-keys",
            post(create_api_key::<A>).get(list_api_keys::<A>),
        )
        .route(
            "/v1/accounts/me/api-keys/{api_key_id}/rotate",
            post(rotate_api_key::<A>),
        )
        .route(
            "/v1/accounts/me/api-keys/{api_key_id}/revoke",
            post(revoke_api_key::<A>),
        )
        .with_state(AccountState { service, queries })
}

async fn refresh<A: AccountService>(
    State(state): State<AccountState<A>>,
    headers: HeaderMap,
    ProtoJson(body): ProtoJson<RefreshRequest>,
) -> Result<JsonBody<Session>, RestError> {
    reply(state.service.refresh(grpc_request(&headers, body)).await)
}

async fn logout<A: AccountService>(
    State(state): State<AccountState<A>>,
    headers: HeaderMap,
    ProtoJson(body): ProtoJson<LogoutRequest>,
) -> Result<JsonBody<LogoutResponse>, RestError> {
    reply(state.service.logout(grpc_request(&headers, body)).await)
}

async fn list_sessions<A: AccountService>(
    State(state): State<AccountState<A>>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Result<JsonBody<ListSessionsResponse>, RestError> {
    let message: ListSessionsRequest = state
        .queries
        .decode("skitgubbe.v1.ListSessionsRequest", query.as_deref())?;
    reply(
        state
            .service
            .list_sessions(grpc_request(&headers, message))
            .await,
    )
}

async fn revoke_session<A: AccountService>(
    State(state): State<AccountState<A>>,
    Path(session_id): Path<String>,
    headers: HeaderMap,
    ProtoJson(mut body): ProtoJson<RevokeSessionRequest>,
) -> Result<JsonBody<RevokeSessionResponse>, RestError> {
    body.session_id = session_id;
    reply(
        state
            .service
            .revoke_session(grpc_request(&headers, body))
            .await,
    )
}

async fn create_api_key<A: AccountService>(
    State(state): State<AccountState<A>>,
    headers: HeaderMap,
    ProtoJson(body): ProtoJson<CreateApiKeyRequest>,
) -> Result<JsonBody<CreateApiKeyResponse>, RestError> {
    reply(
        state
            .service
            .create_api_key(grpc_request(&headers, body))
            .await,
    )
}

async fn list_api_keys<A: AccountService>(
    State(state): State<AccountState<A>>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Result<JsonBody<ListApiKeysResponse>, RestError> {
    let message: ListApiKeysRequest = state
        .queries
        .decode("skitgubbe.v1.ListApiKeysRequest", query.as_deref())?;
    reply(
        state
            .service
            .list_api_keys(grpc_request(&headers, message))
            .await,
    )
}

async fn rotate_api_key<A: AccountService>(
    State(state): State<AccountState<A>>,
    Path(api_key_id): Path<String>,
    headers: HeaderMap,
    ProtoJson(mut body): ProtoJson<RotateApiKeyRequest>,
) -> Result<JsonBody<CreateApiKeyResponse>, RestError> {
    body.api_key_id = api_key_id;
    reply(
        state
            .service
            .rotate_api_key(grpc_request(&headers, body))
            .await,
    )
}

async fn revoke_api_key<A: AccountService>(
    State(state): State<AccountState<A>>,
    Path(api_key_id): Path<String>,
    headers: HeaderMap,
    ProtoJson(mut body): ProtoJson<RevokeApiKeyRequest>,
) -> Result<JsonBody<RevokeApiKeyResponse>, RestError> {
    body.api_key_id = api_key_id;
    reply(
        state
            .service
            .revoke_api_key(grpc_request(&headers, body))
            .await,
    )
}

//! The AccountService's sign-ins for people: register, log in, upgrade a
//! guest, sign a device in and link one, as `routes.rs` lists them.

use std::sync::Arc;

use axum::{Router, extract::State, http::HeaderMap, routing::post};
use skit_proto::v1::{
    AccountSummary, AuthenticateDeviceRequest, LinkDeviceRequest, LinkDeviceResponse, LoginRequest,
    RegisterRequest, SignInResponse, UpgradeGuestRequest, account_service_server::AccountService,
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
        .route("/v1/accounts/register", post(register::<A>))
        .route("/v1/accounts/login", post(login::<A>))
        .route("/v1/accounts/me/upgrade", post(upgrade_guest::<A>))
        .route("/v1/accounts/device", post(authenticate_device::<A>))
        .route("/v1/accounts/me/devices", post(link_device::<A>))
        .with_state(AccountState { service, queries })
}

async fn register<A: AccountService>(
    State(state): State<AccountState<A>>,
    headers: HeaderMap,
    ProtoJson(body): ProtoJson<RegisterRequest>,
) -> Result<JsonBody<SignInResponse>, RestError> {
    reply(state.service.register(grpc_request(&headers, body)).await)
}

async fn login<A: AccountService>(
    State(state): State<AccountState<A>>,
    headers: HeaderMap,
    ProtoJson(body): ProtoJson<LoginRequest>,
) -> Result<JsonBody<SignInResponse>, RestError> {
    reply(state.service.login(grpc_request(&headers, body)).await)
}

async fn upgrade_guest<A: AccountService>(
    State(state): State<AccountState<A>>,
    headers: HeaderMap,
    ProtoJson(body): ProtoJson<UpgradeGuestRequest>,
) -> Result<JsonBody<AccountSummary>, RestError> {
    reply(
        state
            .service
            .upgrade_guest(grpc_request(&headers, body))
            .await,
    )
}

async fn authenticate_device<A: AccountService>(
    State(state): State<AccountState<A>>,
    headers: HeaderMap,
    ProtoJson(body): ProtoJson<AuthenticateDeviceRequest>,
) -> Result<JsonBody<SignInResponse>, RestError> {
    reply(
        state
            .service
            .authenticate_device(grpc_request(&headers, body))
            .await,
    )
}

async fn link_device<A: AccountService>(
    State(state): State<AccountState<A>>,
    headers: HeaderMap,
    ProtoJson(body): ProtoJson<LinkDeviceRequest>,
) -> Result<JsonBody<LinkDeviceResponse>, RestError> {
    reply(
        state
            .service
            .link_device(grpc_request(&headers, body))
            .await,
    )
}

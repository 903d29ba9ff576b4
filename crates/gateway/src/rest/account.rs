//! The AccountService routes.

use std::sync::Arc;

use axum::{
    Router,
    extract::{Path, RawQuery, State},
    http::HeaderMap,
    routing::{get, post},
};
use skit_proto::v1::{
    AccountSummary, CreateAccountRequest, CreateAccountResponse, CreateGuestRequest,
    CreateGuestResponse, ListAccountsRequest, ListAccountsResponse, SetHouseBotRequest,
    WhoAmIRequest, WhoAmIResponse, account_service_server::AccountService,
};

use super::reply::reply;
use crate::{
    error::RestError,
    extract::{ProtoJson, grpc_request},
    json::JsonBody,
    query::QueryDecoder,
};

pub(super) struct AccountState<A> {
    pub(super) service: Arc<A>,
    pub(super) queries: Arc<QueryDecoder>,
}

// Derived Clone would demand `A: Clone`; only the Arcs are cloned.
impl<A> Clone for AccountState<A> {
    fn clone(&self) -> Self {
        Self {
            service: self.service.clone(),
            queries: self.queries.clone(),
        }
    }
}

pub(super) fn routes<A: AccountService>(service: Arc<A>, queries: Arc<QueryDecoder>) -> Router {
    Router::new()
        .route("/v1/accounts/guest", post(create_guest::<A>))
        .route(
            "/v1/accounts",
            post(create_account::<A>).get(list_accounts::<A>),
        )
        .route("/v1/accounts/me", get(who_am_i::<A>))
        .route(
            "/v1/accounts/{account_id}/house-bot",
            post(set_house_bot::<A>),
        )
        .with_state(AccountState { service, queries })
}

async fn create_guest<A: AccountService>(
    State(state): State<AccountState<A>>,
    headers: HeaderMap,
    ProtoJson(body): ProtoJson<CreateGuestRequest>,
) -> Result<JsonBody<CreateGuestResponse>, RestError> {
    reply(
        state
            .service
            .create_guest(grpc_request(&headers, body))
            .await,
    )
}

async fn create_account<A: AccountService>(
    State(state): State<AccountState<A>>,
    headers: HeaderMap,
    ProtoJson(body): ProtoJson<CreateAccountRequest>,
) -> Result<JsonBody<CreateAccountResponse>, RestError> {
    reply(
        state
            .service
            .create_account(grpc_request(&headers, body))
            .await,
    )
}

async fn who_am_i<A: AccountService>(
    State(state): State<AccountState<A>>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Result<JsonBody<WhoAmIResponse>, RestError> {
    let message: WhoAmIRequest = state
        .queries
        .decode("skitgubbe.v1.WhoAmIRequest", query.as_deref())?;
    reply(
        state
            .service
            .who_am_i(grpc_request(&headers, message))
            .await,
    )
}

async fn list_accounts<A: AccountService>(
    State(state): State<AccountState<A>>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Result<JsonBody<ListAccountsResponse>, RestError> {
    let message: ListAccountsRequest = state
        .queries
        .decode("skitgubbe.v1.ListAccountsRequest", query.as_deref())?;
    reply(
        state
            .service
            .list_accounts(grpc_request(&headers, message))
            .await,
    )
}

async fn set_house_bot<A: AccountService>(
    State(state): State<AccountState<A>>,
    Path(account_id): Path<String>,
    headers: HeaderMap,
    ProtoJson(mut body): ProtoJson<SetHouseBotRequest>,
) -> Result<JsonBody<AccountSummary>, RestError> {
    body.account_id = account_id;
    reply(
        state
            .service
            .set_house_bot(grpc_request(&headers, body))
            .await,
    )
}

//! The AdminService routes, under `/v1/admin` (operators only).

use std::sync::Arc;

use axum::{
    Router,
    extract::{Path, RawQuery, State},
    http::HeaderMap,
    routing::{get, post},
};
use skit_proto::v1::{
    AdminAccount, AdminCredential, AdminSetHouseBotRequest, FindAccountsRequest,
    FindAccountsResponse, GetAccountRequest, ListAuditLogRequest, ListAuditLogResponse,
    ListCredentialsRequest, ListCredentialsResponse, ResetPasswordRequest, ResetPasswordResponse,
    RevokeCredentialRequest, SetAccountStatusRequest, VoidGameRequest, VoidGameResponse,
    admin_service_server::AdminService,
};

use super::reply::reply;
use crate::{
    error::RestError,
    extract::{ProtoJson, grpc_request},
    json::JsonBody,
    query::QueryDecoder,
};

pub(super) struct AdminState<D> {
    service: Arc<D>,
    queries: Arc<QueryDecoder>,
}

// Derived Clone would demand `D: Clone`; only the Arcs are cloned.
impl<D> Clone for AdminState<D> {
    fn clone(&self) -> Self {
        Self {
            service: self.service.clone(),
            queries: self.queries.clone(),
        }
    }
}

pub(super) fn routes<D: AdminService>(service: Arc<D>, queries: Arc<QueryDecoder>) -> Router {
    Router::new()
        .route("/v1/admin/accounts", get(find_accounts::<D>))
        .route("/v1/admin/accounts/{account_id}", get(get_account::<D>))
        .route(
            "/v1/admin/accounts/{account_id}/status",
            post(set_account_status::<D>),
        )
        .route(
            "/v1/admin/accounts/{account_id}/house-bot",
            post(set_house_bot::<D>),
        )
        .route("/v1/admin/games/{game_id}/void", post(void_game::<D>))
        .route("/v1/admin/audit-log", get(list_audit_log::<D>))
        .route(
            "/v1/admin/accounts/{account_id}/credentials",
            get(list_credentials::<D>),
        )
        .route(
            "/v1/admin/accounts/{account_id}/credentials/{credential_id}/revoke",
            post(revoke_credential::<D>),
        )
        .route(
            "/v1/admin/accounts/{account_id}/reset-password",
            post(reset_password::<D>),
        )
        .with_state(AdminState { service, queries })
}

async fn find_accounts<D: AdminService>(
    State(state): State<AdminState<D>>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Result<JsonBody<FindAccountsResponse>, RestError> {
    let message: FindAccountsRequest = state
        .queries
        .decode("skitgubbe.v1.FindAccountsRequest", query.as_deref())?;
    reply(
        state
            .service
            .find_accounts(grpc_request(&headers, message))
            .await,
    )
}

async fn get_account<D: AdminService>(
    State(state): State<AdminState<D>>,
    Path(account_id): Path<String>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Result<JsonBody<AdminAccount>, RestError> {
    let mut message: GetAccountRequest = state
        .queries
        .decode("skitgubbe.v1.GetAccountRequest", query.as_deref())?;
    message.account_id = account_id;
    reply(
        state
            .service
            .get_account(grpc_request(&headers, message))
            .await,
    )
}

async fn set_account_status<D: AdminService>(
    State(state): State<AdminState<D>>,
    Path(account_id): Path<String>,
    headers: HeaderMap,
    ProtoJson(mut body): ProtoJson<SetAccountStatusRequest>,
) -> Result<JsonBody<AdminAccount>, RestError> {
    body.account_id = account_id;
    reply(
        state
            .service
            .set_account_status(grpc_request(&headers, body))
            .await,
    )
}

async fn set_house_bot<D: AdminService>(
    State(state): State<AdminState<D>>,
    Path(account_id): Path<String>,
    headers: HeaderMap,
    ProtoJson(mut body): ProtoJson<AdminSetHouseBotRequest>,
) -> Result<JsonBody<AdminAccount>, RestError> {
    body.account_id = account_id;
    reply(
        state
            .service
            .set_house_bot(grpc_request(&headers, body))
            .await,
    )
}

async fn void_game<D: AdminService>(
    State(state): State<AdminState<D>>,
    Path(game_id): Path<String>,
    headers: HeaderMap,
    ProtoJson(mut body): ProtoJson<VoidGameRequest>,
) -> Result<JsonBody<VoidGameResponse>, RestError> {
    body.game_id = game_id;
    reply(state.service.void_game(grpc_request(&headers, body)).await)
}

async fn list_audit_log<D: AdminService>(
    State(state): State<AdminState<D>>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Result<JsonBody<ListAuditLogResponse>, RestError> {
    let message: ListAuditLogRequest = state
        .queries
        .decode("skitgubbe.v1.ListAuditLogRequest", query.as_deref())?;
    reply(
        state
            .service
            .list_audit_log(grpc_request(&headers, message))
            .await,
    )
}

async fn list_credentials<D: AdminService>(
    State(state): State<AdminState<D>>,
    Path(account_id): Path<String>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Result<JsonBody<ListCredentialsResponse>, RestError> {
    let mut message: ListCredentialsRequest = state
        .queries
        .decode("skitgubbe.v1.ListCredentialsRequest", query.as_deref())?;
    message.account_id = account_id;
    reply(
        state
            .service
            .list_credentials(grpc_request(&headers, message))
            .await,
    )
}

async fn revoke_credential<D: AdminService>(
    State(state): State<AdminState<D>>,
    Path((account_id, credential_id)): Path<(String, String)>,
    headers: HeaderMap,
    ProtoJson(mut body): ProtoJson<RevokeCredentialRequest>,
) -> Result<JsonBody<AdminCredential>, RestError> {
    body.account_id = account_id;
    body.credential_id = credential_id;
    reply(
        state
            .service
            .revoke_credential(grpc_request(&headers, body))
            .await,
    )
}

async fn reset_password<D: AdminService>(
    State(state): State<AdminState<D>>,
    Path(account_id): Path<String>,
    headers: HeaderMap,
    ProtoJson(mut body): ProtoJson<ResetPasswordRequest>,
) -> Result<JsonBody<ResetPasswordResponse>, RestError> {
    body.account_id = account_id;
    reply(
        state
            .service
            .reset_password(grpc_request(&headers, body))
            .await,
    )
}

//! AccountService's sign-ins for people: Register, Login, UpgradeGuest,
//! AuthenticateDevice and LinkDevice. Each checks its request, does its
//! part (`people`, `devices`) and answers with a session (`sessions`).

use skit_api::{ApiError, ErrorCode};
use skit_proto::v1::{
    AccountSummary, AuthenticateDeviceRequest, LinkDeviceRequest, LinkDeviceResponse, LoginRequest,
    RegisterRequest, SignInResponse, UpgradeGuestRequest,
};
use skit_store::{Account, AccountKind, Scope};
use tonic::Request;

use crate::account_messages::{api_kind, summary};
use crate::error::store_error;
use crate::sessions::issue_session;
use crate::state::AppState;
use crate::{devices, people};

async fn signed_in(
    state: &AppState,
    account: Account,
    created: bool,
) -> Result<SignInResponse, ApiError> {
    let session = issue_session(state, account.id).await?;
    Ok(SignInResponse {
        account_id: account.id.to_string(),
        name: account.name,
        kind: api_kind(account.kind) as i32,
        session: Some(session.message()),
        created,
    })
}

#[tracing::instrument(skip_all)]
pub async fn register(state: &AppState, req: RegisterRequest) -> Result<SignInResponse, ApiError> {
    let account = people::register(&state.store, &req.name, &req.password).await?;
    signed_in(state, account, true).await
}

#[tracing::instrument(skip_all)]
pub async fn login(state: &AppState, req: LoginRequest) -> Result<SignInResponse, ApiError> {
    skit_api::text::stored("name", &req.name)?;
    let account = people::login(&state.store, &req.name, &req.password).await?;
    tracing::info!(account = %account.id, "signed in with a password");
    signed_in(state, account, false).await
}

#[tracing::instrument(skip_all)]
pub async fn upgrade_guest(
    state: &AppState,
    request: Request<UpgradeGuestRequest>,
) -> Result<AccountSummary, ApiError> {
    let caller = state
        .auth
        .authorize(request.metadata(), Scope::Play)
        .await?;
    let req = request.into_inner();
    let account =
        people::upgrade_guest(&state.store, &caller.account, &req.name, &req.password).await?;
    // Every instance's cached credentials of the account still say guest:
    // this one forgets them now, the others when the feed names it.
    state.auth.forget_account(account.id);
    state
        .store
        .announce_account_change(account.id)
        .await
        .map_err(store_error)?;
    Ok(summary(account))
}

#[tracing::instrument(skip_all)]
pub async fn authenticate_device(
    state: &AppState,
    req: AuthenticateDeviceRequest,
) -> Result<SignInResponse, ApiError> {
    let hash = devices::device_hash("device_id", &req.device_id)?;
    let (account, created) = devices::sign_in(&state.store, &hash).await?;
    if !matches!(account.kind, AccountKind::Guest | AccountKind::Player) {
        return Err(ApiError::invariant(
            "a device linked to no person's account",
        ));
    }
    signed_in(state, account, created).await
}

#[tracing::instrument(skip_all)]
pub async fn link_device(
    state: &AppState,
    request: Request<LinkDeviceRequest>,
) -> Result<LinkDeviceResponse, ApiError> {
    let caller = state
        .auth
        .authorize(request.metadata(), Scope::Play)
        .await?;
    if !matches!(
        caller.account.kind,
        AccountKind::Guest | AccountKind::Player
    ) {
        return Err(ApiError::new(
            ErrorCode::PermissionDenied,
            "not_a_person",
            "only guest and player accounts sign in from devices",
        ));
    }
    let hash = devices::device_hash("device_id", &request.get_ref().device_id)?;
    devices::link(&state.store, &caller.account, &hash).await?;
    tracing::info!(account = %caller.account.id, "device linked");
    Ok(LinkDeviceResponse {})
}

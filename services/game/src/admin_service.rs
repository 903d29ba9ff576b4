//! AdminService: operators find accounts, disable or ban them, mark house
//! bots, void games and read the audit log (docs/admin.md). Every change
//! is audited: the store writes the entry in the change's transaction.

use skit_api::{ApiError, ErrorCode, timestamp};
use skit_proto::v1::admin_service_server::AdminService;
use skit_proto::v1::{
    AccountStatus as ApiStatus, AdminAccount, AdminCredential, AdminSetHouseBotRequest,
    FindAccountsRequest, FindAccountsResponse, GetAccountRequest, ListAuditLogRequest,
    ListAuditLogResponse, ListCredentialsRequest, ListCredentialsResponse, ResetPasswordRequest,
    ResetPasswordResponse, RevokeCredentialRequest, SetAccountStatusRequest, VoidGameRequest,
    VoidGameResponse,
};
use skit_store::{
    Account, AccountId, AccountQuery, AccountStatus, AuditFilter, GameCounts, Voided,
};
use tonic::metadata::MetadataMap;
use tonic::{Request, Response, Status};

use crate::account_messages::{api_kind, store_kind};
use crate::audit::{self, Operator};
use crate::error::store_error;
use crate::game_service::{GameApi, game_id};
use crate::state::AppState;

/// A page of accounts or audit entries: this many unless asked, at most
/// [`MAX_PAGE`].
const DEFAULT_PAGE: u32 = 50;
const MAX_PAGE: u32 = 500;

#[derive(Debug, Clone)]
pub struct AdminApi {
    state: AppState,
    games: GameApi,
}

fn page_size(asked: u32) -> u32 {
    match asked {
        0 => DEFAULT_PAGE,
        n => n.min(MAX_PAGE),
    }
}

/// An id-valued request field: empty is `None`.
fn optional_id(field: &str, text: &str) -> Result<Option<i64>, ApiError> {
    match text {
        "" => Ok(None),
        text => text
            .parse::<i64>()
            .map(Some)
            .map_err(|_| ApiError::invalid(field, "not an id")),
    }
}

pub(crate) fn account_id(field: &str, text: &str) -> Result<AccountId, ApiError> {
    optional_id(field, text)?
        .map(AccountId)
        .ok_or_else(|| ApiError::invalid(field, "is required"))
}

fn api_status(status: AccountStatus) -> ApiStatus {
    match status {
        AccountStatus::Active => ApiStatus::Active,
        AccountStatus::Disabled => ApiStatus::Disabled,
        AccountStatus::Banned => ApiStatus::Banned,
    }
}

/// A request's status filter or new status; `UNSPECIFIED` is `None`.
fn store_status(field: &str, value: i32) -> Result<Option<AccountStatus>, ApiError> {
    match ApiStatus::try_from(value) {
        Ok(ApiStatus::Unspecified) => Ok(None),
        Ok(ApiStatus::Active) => Ok(Some(AccountStatus::Active)),
        Ok(ApiStatus::Disabled) => Ok(Some(AccountStatus::Disabled)),
        Ok(ApiStatus::Banned) => Ok(Some(AccountStatus::Banned)),
        Err(_) => Err(ApiError::invalid(field, format!("unknown status {value}"))),
    }
}

fn admin_account(account: Account, counts: Option<GameCounts>) -> AdminAccount {
    let counts = counts.unwrap_or(GameCounts {
        total: 0,
        running: 0,
    });
    AdminAccount {
        account_id: account.id.to_string(),
        name: account.name,
        kind: api_kind(account.kind) as i32,
        status: api_status(account.status) as i32,
        status_reason: account.status_reason,
        house_bot: account.house_bot,
        created_at: Some(timestamp(account.created_at)),
        games: u64::try_from(counts.total).unwrap_or(0),
        running_games: u64::try_from(counts.running).unwrap_or(0),
    }
}

impl AdminApi {
    pub fn new(state: AppState) -> Self {
        let games = GameApi::new(state.clone());
        Self { state, games }
    }

    pub(crate) fn state(&self) -> &AppState {
        &self.state
    }

    async fn operator(&self, metadata: &MetadataMap) -> Result<Operator, ApiError> {
        let caller = self.state.auth.caller(metadata).await?;
        Operator::check(caller, "administer the service")
    }

    /// The account with its game counts; NOT_FOUND if none.
    pub(crate) async fn shown(&self, id: AccountId) -> Result<AdminAccount, ApiError> {
        let store = &self.state.store;
        let account = store
            .account(id)
            .await
            .map_err(store_error)?
            .ok_or_else(|| ApiError::not_found(format!("no account {id}")))?;
        let counts = store.game_counts(id).await.map_err(store_error)?;
        Ok(admin_account(account, Some(counts)))
    }

    #[tracing::instrument(skip_all)]
    async fn find(&self, req: FindAccountsRequest) -> Result<FindAccountsResponse, ApiError> {
        let after = optional_id("page_token", &req.page_token)?.map(AccountId);
        let only = optional_id("account_id", &req.account_id)?;
        skit_api::text::stored("name", &req.name)?;
        let query = AccountQuery {
            name: (!req.name.is_empty()).then(|| req.name.clone()),
            name_prefix: req.name_prefix,
            kind: store_kind("kind", req.kind)?,
            status: store_status("status", req.status)?,
            after,
        };
        let limit = page_size(req.page_size);
        let accounts = match only {
            Some(id) => self
                .state
                .store
                .account(AccountId(id))
                .await
                .map_err(store_error)?
                .filter(|a| matches(&query, a))
                .into_iter()
                .collect(),
            None => self
                .state
                .store
                .find_accounts(&query, limit)
                .await
                .map_err(store_error)?,
        };
        let next_page_token = match accounts.len() == limit as usize {
            true => accounts
                .last()
                .map(|a| a.id.to_string())
                .unwrap_or_default(),
            false => String::new(),
        };
        Ok(FindAccountsResponse {
            accounts: accounts
                .into_iter()
                .map(|a| admin_account(a, None))
                .collect(),
            next_page_token,
        })
    }

    #[tracing::instrument(skip_all, fields(account = %req.account_id))]
    async fn set_status(
        &self,
        operator: Operator,
        req: SetAccountStatusRequest,
    ) -> Result<AdminAccount, ApiError> {
        let id = account_id("account_id", &req.account_id)?;
        let status = store_status("status", req.status)?
            .ok_or_else(|| ApiError::invalid("status", "is required"))?;
        let reason = audit::reason("reason", &req.reason, status != AccountStatus::Active)?;
        let store = &self.state.store;
        let target = store
            .account(id)
            .await
            .map_err(store_error)?
            .ok_or_else(|| ApiError::not_found(format!("no account {id}")))?;
        if target.kind == skit_store::AccountKind::Operator {
            return Err(ApiError::failed_precondition(
                "operator accounts cannot be disabled",
            ));
        }
        let record = operator.audit_account("set_account_status", &reason, id);
        store
            .set_account_status(id, status, &reason, &record)
            .await
            .map_err(store_error)?
            .ok_or_else(|| ApiError::not_found(format!("no account {id}")))?;
        // Every other instance forgets it within a second: the status
        // change appended the account to the revocation feed.
        self.state.auth.forget_account(id);
        if status != AccountStatus::Active {
            let games = self.games.mark_absent(id).await?;
            tracing::info!(games, "seats of a disabled account marked absent");
        }
        tracing::info!(status = status.as_str(), "account status set");
        self.shown(id).await
    }

    #[tracing::instrument(skip_all, fields(account = %req.account_id))]
    async fn house_bot(
        &self,
        operator: Operator,
        req: AdminSetHouseBotRequest,
    ) -> Result<AdminAccount, ApiError> {
        let id = account_id("account_id", &req.account_id)?;
        let reason = audit::reason("reason", &req.reason, false)?;
        let mut record = operator.audit_account("set_house_bot", &reason, id);
        record.details = serde_json::json!({ "house_bot": req.house_bot });
        self.state
            .store
            .set_house_bot_audited(id, req.house_bot, &record)
            .await
            .map_err(store_error)?
            .ok_or_else(|| ApiError::not_found(format!("no bot account {id}")))?;
        self.shown(id).await
    }

    #[tracing::instrument(skip_all, fields(game_id = %req.game_id))]
    async fn void(
        &self,
        operator: Operator,
        req: VoidGameRequest,
    ) -> Result<VoidGameResponse, ApiError> {
        let id = game_id(&req.game_id)?;
        let reason = audit::reason("reason", &req.reason, true)?;
        let record = operator.audit_game("void_game", &reason, id);
        match self
            .state
            .store
            .void_game(id, &record)
            .await
            .map_err(store_error)?
        {
            Voided::Voided => {}
            Voided::AlreadyOver => {
                return Err(ApiError::new(
                    ErrorCode::FailedPrecondition,
                    "game_over",
                    format!("game {id} is over: its result stands"),
                ));
            }
        }
        let version = self.games.void(id, &reason).await?;
        tracing::info!(version, "game voided");
        Ok(VoidGameResponse {
            game_id: id.to_string(),
            version,
        })
    }

    #[tracing::instrument(skip_all)]
    async fn audit_log(&self, req: ListAuditLogRequest) -> Result<ListAuditLogResponse, ApiError> {
        skit_api::text::id("action", &req.action)?;
        let filter =
            AuditFilter {
                operator: optional_id("operator_id", &req.operator_id)?.map(AccountId),
                action: (!req.action.is_empty()).then(|| req.action.clone()),
                target_account: optional_id("target_account_id", &req.target_account_id)?
                    .map(AccountId),
                target_game: match req.target_game_id.as_str() {
                    "" => None,
                    text => Some(text.parse().map_err(|_| {
                        ApiError::invalid("target_game_id", "not a game id (a UUID)")
                    })?),
                },
                before: optional_id("page_token", &req.page_token)?,
            };
        let limit = page_size(req.page_size);
        let entries = self
            .state
            .store
            .audit_log(&filter, limit)
            .await
            .map_err(store_error)?;
        let next_page_token = match entries.len() == limit as usize {
            true => entries.last().map(|e| e.id.to_string()).unwrap_or_default(),
            false => String::new(),
        };
        Ok(ListAuditLogResponse {
            entries: entries.into_iter().map(audit::entry_message).collect(),
            next_page_token,
        })
    }
}

/// Whether `account` passes `query`'s filters (for a lookup by id).
fn matches(query: &AccountQuery, account: &Account) -> bool {
    let name = account.name.to_lowercase();
    let wanted = query.name.as_deref().map(str::to_lowercase);
    let name_ok = match (&wanted, query.name_prefix) {
        (None, _) => true,
        (Some(w), true) => name.starts_with(w.as_str()),
        (Some(w), false) => &name == w,
    };
    name_ok
        && query.kind.is_none_or(|k| k == account.kind)
        && query.status.is_none_or(|s| s == account.status)
        && query.after.is_none_or(|after| account.id > after)
}

#[tonic::async_trait]
impl AdminService for AdminApi {
    async fn find_accounts(
        &self,
        request: Request<FindAccountsRequest>,
    ) -> Result<Response<FindAccountsResponse>, Status> {
        self.operator(request.metadata()).await?;
        Ok(Response::new(self.find(request.into_inner()).await?))
    }

    async fn get_account(
        &self,
        request: Request<GetAccountRequest>,
    ) -> Result<Response<AdminAccount>, Status> {
        self.operator(request.metadata()).await?;
        let id = account_id("account_id", &request.get_ref().account_id)?;
        Ok(Response::new(self.shown(id).await?))
    }

    async fn set_account_status(
        &self,
        request: Request<SetAccountStatusRequest>,
    ) -> Result<Response<AdminAccount>, Status> {
        let operator = self.operator(request.metadata()).await?;
        Ok(Response::new(
            self.set_status(operator, request.into_inner()).await?,
        ))
    }

    async fn set_house_bot(
        &self,
        request: Request<AdminSetHouseBotRequest>,
    ) -> Result<Response<AdminAccount>, Status> {
        let operator = self.operator(request.metadata()).await?;
        Ok(Response::new(
            self.house_bot(operator, request.into_inner()).await?,
        ))
    }

    async fn void_game(
        &self,
        request: Request<VoidGameRequest>,
    ) -> Result<Response<VoidGameResponse>, Status> {
        let operator = self.operator(request.metadata()).await?;
        Ok(Response::new(
            self.void(operator, request.into_inner()).await?,
        ))
    }

    async fn list_audit_log(
        &self,
        request: Request<ListAuditLogRequest>,
    ) -> Result<Response<ListAuditLogResponse>, Status> {
        self.operator(request.metadata()).await?;
        Ok(Response::new(self.audit_log(request.into_inner()).await?))
    }

    async fn list_credentials(
        &self,
        request: Request<ListCredentialsRequest>,
    ) -> Result<Response<ListCredentialsResponse>, Status> {
        self.operator(request.metadata()).await?;
        Ok(Response::new(self.credentials(request.into_inner()).await?))
    }

    async fn revoke_credential(
        &self,
        request: Request<RevokeCredentialRequest>,
    ) -> Result<Response<AdminCredential>, Status> {
        let operator = self.operator(request.metadata()).await?;
        Ok(Response::new(
            self.revoke(operator, request.into_inner()).await?,
        ))
    }

    async fn reset_password(
        &self,
        request: Request<ResetPasswordRequest>,
    ) -> Result<Response<ResetPasswordResponse>, Status> {
        let operator = self.operator(request.metadata()).await?;
        Ok(Response::new(
            self.password_reset(operator, request.into_inner()).await?,
        ))
    }
}

//! AccountService: guests sign themselves up; operators create player and
//! bot accounts and mark the house bots (both audited, `audit.rs`). Tokens
//! are shown once; only their hashes are stored (and, for a guest created
//! with a request id, its tokens sealed under that request, for its resend:
//! `guest_request`). The session RPCs are `session_api.rs`, the API keys'
//! `api_keys.rs`, people's sign-ins (register, login, guest upgrade,
//! devices) `sign_in_api.rs`.

use skit_api::ApiError;
use skit_proto::v1::account_service_server::AccountService;
use skit_proto::v1::{
    AccountKind as ApiKind, AccountSummary, CreateAccountRequest, CreateAccountResponse,
    CreateApiKeyRequest, CreateApiKeyResponse, CreateGuestRequest, CreateGuestResponse,
    ListAccountsRequest, ListAccountsResponse, ListApiKeysRequest, ListApiKeysResponse,
    ListSessionsRequest, ListSessionsResponse, LogoutRequest, LogoutResponse, RefreshRequest,
    RevokeApiKeyRequest, RevokeApiKeyResponse, RevokeSessionRequest, RevokeSessionResponse,
    RotateApiKeyRequest, Session, SetHouseBotRequest, SetLanguageRequest, WhoAmIRequest,
    WhoAmIResponse,
};
use skit_proto::v1::{
    AuthenticateDeviceRequest, LinkDeviceRequest, LinkDeviceResponse, LoginRequest,
    RegisterRequest, SignInResponse, UpgradeGuestRequest,
};
use skit_store::{AccountId, AccountKind, AccountRequest, NewAccount, Scope, token_hash};
use tonic::{Request, Response, Status};

use crate::account_messages::{store_kind, summary};
use crate::admin_service;
use crate::api_key::{api_key_message, new_api_key};
use crate::audit::Operator;
use crate::error::{account_disabled, store_error};
use crate::guest_request::GuestRequest;
use crate::secrets::new_token;
use crate::sessions::{IssuedSession, SessionDraft};
use crate::sign_in_api;
use crate::state::AppState;

/// ListAccounts answers at most this many.
const MAX_LIST: u32 = 1000;

#[derive(Debug, Clone)]
pub struct AccountApi {
    pub(crate) state: AppState,
}

fn guest_response(
    account: skit_store::Account,
    token: String,
    session: Option<Session>,
) -> CreateGuestResponse {
    CreateGuestResponse {
        account_id: account.id.to_string(),
        name: account.name,
        token,
        session,
    }
}

fn session_response(account: skit_store::Account, session: &IssuedSession) -> CreateGuestResponse {
    guest_response(
        account,
        session.access_token.clone(),
        Some(session.message()),
    )
}

impl AccountApi {
    pub fn new(state: AppState) -> Self {
        Self { state }
    }

    /// Creates an account holding a new session; returns both.
    async fn create_with_session(
        &self,
        name: String,
        kind: AccountKind,
    ) -> Result<(skit_store::Account, IssuedSession), ApiError> {
        let draft = SessionDraft::new(&self.state.lifetimes)?;
        let new = NewAccount {
            name,
            kind,
            token_hash: token_hash(&draft.access_token),
        };
        let (account, _) = self
            .state
            .store
            .create_account_with_credentials(new, &draft.credentials())
            .await
            .map_err(store_error)?;
        let id = account.id;
        Ok((account, draft.issued(id)))
    }

    #[tracing::instrument(skip_all)]
    async fn guest(&self, req: CreateGuestRequest) -> Result<CreateGuestResponse, ApiError> {
        let request_id = skit_api::request_id(&req.request_id, "request_id")?;
        let name = req
            .name
            .as_deref()
            .map(|name| skit_api::text::name("name", name))
            .transpose()?;
        // Keyed by the trimmed name: a resend that differs only in the
        // spaces around the name is the same request.
        let request = request_id
            .map(|id| GuestRequest::new(id, name.as_deref()))
            .transpose()?;
        if let Some(request) = &request
            && let Some(first) = self.guest_created_for(request).await?
        {
            return Ok(first);
        }
        let name = match name.clone() {
            Some(name) => name,
            None => format!("guest-{}", &new_token()?[4..10]),
        };
        let Some(request) = request else {
            let (account, session) = self.create_with_session(name, AccountKind::Guest).await?;
            return Ok(session_response(account, &session));
        };
        let draft = SessionDraft::new(&self.state.lifetimes)?;
        let new = NewAccount {
            name,
            kind: AccountKind::Guest,
            token_hash: token_hash(&draft.access_token),
        };
        let kept = AccountRequest {
            key: request.key(),
            sealed_token: request.seal(&draft.access_token)?,
            sealed_refresh: Some(request.seal_refresh(&draft.refresh_token)?),
        };
        let created = self
            .state
            .store
            .create_account_for_request(new, kept, &draft.credentials())
            .await;
        match created {
            Ok(account) => {
                let session = draft.issued(account.id);
                Ok(session_response(account, &session))
            }
            // A concurrent twin of this request won.
            Err(skit_store::Error::DuplicateRequest) => self
                .guest_created_for(&request)
                .await?
                .ok_or_else(|| ApiError::invariant("a duplicate request key with no account")),
            Err(e) => Err(store_error(e)),
        }
    }

    /// The answer the first CreateGuest with this request got, if there was
    /// one; `request_id_reused` if its id came with another name.
    async fn guest_created_for(
        &self,
        request: &GuestRequest<'_>,
    ) -> Result<Option<CreateGuestResponse>, ApiError> {
        let Some((account, kept)) = self
            .state
            .store
            .account_by_request_key(&request.key())
            .await
            .map_err(store_error)?
        else {
            return Ok(None);
        };
        let token = request
            .open(&kept.sealed_token, &account.token_hash)
            .ok_or_else(|| {
                ApiError::request_id_reused(
                    "request_id",
                    "request_id was used for a CreateGuest with another name",
                )
            })?;
        // The resend would hand out the first session again.
        if !account.is_active() {
            return Err(account_disabled(account.id, account.status));
        }
        let session = match &kept.sealed_refresh {
            Some(sealed) => {
                self.first_session(account.id, &token, request, sealed)
                    .await?
            }
            None => None,
        };
        tracing::info!(account = %account.id, "repeated CreateGuest answered with the first account");
        Ok(Some(guest_response(account, token, session)))
    }

    /// The session the first CreateGuest of `request` answered, from its
    /// access token and its sealed refresh token.
    async fn first_session(
        &self,
        account_id: AccountId,
        access_token: &str,
        request: &GuestRequest<'_>,
        sealed_refresh: &str,
    ) -> Result<Option<Session>, ApiError> {
        let store = &self.state.store;
        let refresh_token = request
            .open_refresh(sealed_refresh)
            .ok_or_else(|| ApiError::invariant("a sealed refresh token that does not open"))?;
        let access = store
            .credential_by_hash(&token_hash(access_token))
            .await
            .map_err(store_error)?;
        let refresh = store
            .credential_by_hash(&token_hash(&refresh_token))
            .await
            .map_err(store_error)?;
        let (Some(access), Some(refresh)) = (access, refresh) else {
            return Ok(None);
        };
        let (Some(session_id), Some(access_expires_at), Some(refresh_expires_at)) =
            (access.session_id, access.expires_at, refresh.expires_at)
        else {
            return Ok(None);
        };
        let session = IssuedSession {
            account_id,
            session_id,
            access_token: access_token.to_owned(),
            access_expires_at,
            refresh_token,
            refresh_expires_at,
        };
        Ok(Some(session.message()))
    }

    #[tracing::instrument(skip_all)]
    /// The owner a new account names: only a bot has one, and it is an
    /// active player account (a person).
    async fn bot_owner(
        &self,
        kind: AccountKind,
        owner: &str,
    ) -> Result<Option<AccountId>, ApiError> {
        const FIELD: &str = "owner_account_id";
        if owner.is_empty() {
            return Ok(None);
        }
        if kind != AccountKind::Bot {
            return Err(ApiError::invalid(FIELD, "only a bot has an owner"));
        }
        let id = admin_service::account_id(FIELD, owner)?;
        let account = self
            .state
            .store
            .account(id)
            .await
            .map_err(store_error)?
            .ok_or_else(|| ApiError::invalid(FIELD, format!("no account {id}")))?;
        if account.kind != AccountKind::Player || !account.is_active() {
            return Err(ApiError::invalid(
                FIELD,
                format!("account {id} is not an active player: a bot's owner is a person"),
            ));
        }
        Ok(Some(id))
    }

    async fn account(
        &self,
        request: Request<CreateAccountRequest>,
    ) -> Result<CreateAccountResponse, ApiError> {
        let caller = self.state.auth.caller(request.metadata()).await?;
        let operator = Operator::check(caller, "create accounts")?;
        let req = request.into_inner();
        let name = skit_api::text::name("name", &req.name)?;
        let kind = match ApiKind::try_from(req.kind) {
            Ok(ApiKind::Player) => AccountKind::Player,
            Ok(ApiKind::Bot) => AccountKind::Bot,
            _ => {
                return Err(ApiError::invalid(
                    "kind",
                    "must be ACCOUNT_KIND_PLAYER or ACCOUNT_KIND_BOT",
                ));
            }
        };
        let owner = self.bot_owner(kind, &req.owner_account_id).await?;
        let answer = match kind {
            AccountKind::Player => {
                let (account, session) = self.create_with_session(name, kind).await?;
                let answer = CreateAccountResponse {
                    account_id: account.id.to_string(),
                    token: session.access_token.clone(),
                    session: Some(session.message()),
                    api_key: None,
                };
                (account, answer)
            }
            _ => {
                let (token, key) = new_api_key("first key".into(), vec![Scope::Play, Scope::Read])?;
                let new = NewAccount {
                    name,
                    kind,
                    token_hash: key.token_hash.clone(),
                };
                let (account, keys) = self
                    .state
                    .store
                    .create_owned_account(new, owner, &[key])
                    .await
                    .map_err(store_error)?;
                let answer = CreateAccountResponse {
                    account_id: account.id.to_string(),
                    token,
                    session: None,
                    api_key: keys.first().map(api_key_message),
                };
                (account, answer)
            }
        };
        let (account, answer) = answer;
        // After the account, in a transaction of its own: creating an
        // account and its credential is not one statement of the store's.
        let mut record = operator.audit_account("create_account", "", account.id);
        record.details = serde_json::json!({ "kind": kind.as_str(), "name": account.name });
        if let Some(owner) = account.owner {
            record.details["owner"] = owner.to_string().into();
        }
        self.state
            .store
            .record_audit(&record)
            .await
            .map_err(store_error)?;
        Ok(answer)
    }

    #[tracing::instrument(skip_all)]
    async fn list(
        &self,
        request: Request<ListAccountsRequest>,
    ) -> Result<ListAccountsResponse, ApiError> {
        let caller = self.state.auth.caller(request.metadata()).await?;
        if !caller.is_operator() {
            return Err(ApiError::permission_denied("only operators list accounts"));
        }
        let req = request.into_inner();
        let kind = store_kind("kind", req.kind)?;
        let limit = match req.limit {
            0 => MAX_LIST,
            n => n.min(MAX_LIST),
        };
        let store = &self.state.store;
        let accounts = match (req.house_bots_only, kind) {
            (false, kind) => store.accounts(kind, limit).await,
            (true, None | Some(AccountKind::Bot)) => store.house_bots(limit).await,
            // House bots are bot accounts.
            (true, Some(_)) => Ok(Vec::new()),
        }
        .map_err(store_error)?;
        Ok(ListAccountsResponse {
            accounts: accounts.into_iter().map(summary).collect(),
        })
    }

    #[tracing::instrument(skip_all)]
    async fn house_bot(
        &self,
        request: Request<SetHouseBotRequest>,
    ) -> Result<AccountSummary, ApiError> {
        let caller = self.state.auth.caller(request.metadata()).await?;
        let operator = Operator::check(caller, "mark house bots")?;
        let req = request.into_inner();
        let id = req
            .account_id
            .parse::<i64>()
            .map_err(|_| ApiError::invalid("account_id", "not an account id"))?;
        let mut record = operator.audit_account("set_house_bot", "", AccountId(id));
        record.details = serde_json::json!({ "house_bot": req.house_bot });
        let marked = self
            .state
            .store
            .set_house_bot_audited(AccountId(id), req.house_bot, &record)
            .await
            .map_err(store_error)?
            .ok_or_else(|| ApiError::not_found(format!("no bot account {id}")))?;
        tracing::info!(
            account = id,
            house_bot = req.house_bot,
            "house bot mark set"
        );
        Ok(summary(marked))
    }
}

#[tonic::async_trait]
impl AccountService for AccountApi {
    async fn create_guest(
        &self,
        request: Request<CreateGuestRequest>,
    ) -> Result<Response<CreateGuestResponse>, Status> {
        Ok(Response::new(self.guest(request.into_inner()).await?))
    }

    async fn create_account(
        &self,
        request: Request<CreateAccountRequest>,
    ) -> Result<Response<CreateAccountResponse>, Status> {
        Ok(Response::new(self.account(request).await?))
    }

    async fn who_am_i(
        &self,
        request: Request<WhoAmIRequest>,
    ) -> Result<Response<WhoAmIResponse>, Status> {
        let caller = self.state.auth.caller(request.metadata()).await?;
        Ok(Response::new(self.identity(caller).await?))
    }

    async fn set_language(
        &self,
        request: Request<SetLanguageRequest>,
    ) -> Result<Response<WhoAmIResponse>, Status> {
        let caller = self.state.auth.caller(request.metadata()).await?;
        let tag = &request.get_ref().language;
        Ok(Response::new(self.set_language(caller, tag).await?))
    }

    async fn list_accounts(
        &self,
        request: Request<ListAccountsRequest>,
    ) -> Result<Response<ListAccountsResponse>, Status> {
        Ok(Response::new(self.list(request).await?))
    }

    async fn set_house_bot(
        &self,
        request: Request<SetHouseBotRequest>,
    ) -> Result<Response<AccountSummary>, Status> {
        Ok(Response::new(self.house_bot(request).await?))
    }

    async fn refresh(&self, request: Request<RefreshRequest>) -> Result<Response<Session>, Status> {
        Ok(Response::new(
            self.refresh_session(request.into_inner()).await?,
        ))
    }

    async fn logout(
        &self,
        request: Request<LogoutRequest>,
    ) -> Result<Response<LogoutResponse>, Status> {
        Ok(Response::new(self.log_out(request.metadata()).await?))
    }

    async fn list_sessions(
        &self,
        request: Request<ListSessionsRequest>,
    ) -> Result<Response<ListSessionsResponse>, Status> {
        Ok(Response::new(self.own_sessions(request.metadata()).await?))
    }

    async fn revoke_session(
        &self,
        request: Request<RevokeSessionRequest>,
    ) -> Result<Response<RevokeSessionResponse>, Status> {
        let metadata = request.metadata().clone();
        Ok(Response::new(
            self.revoke_own_session(&metadata, request.into_inner())
                .await?,
        ))
    }

    async fn create_api_key(
        &self,
        request: Request<CreateApiKeyRequest>,
    ) -> Result<Response<CreateApiKeyResponse>, Status> {
        let metadata = request.metadata().clone();
        Ok(Response::new(
            self.create_key(&metadata, request.into_inner()).await?,
        ))
    }

    async fn list_api_keys(
        &self,
        request: Request<ListApiKeysRequest>,
    ) -> Result<Response<ListApiKeysResponse>, Status> {
        Ok(Response::new(self.list_keys(request.metadata()).await?))
    }

    async fn rotate_api_key(
        &self,
        request: Request<RotateApiKeyRequest>,
    ) -> Result<Response<CreateApiKeyResponse>, Status> {
        let metadata = request.metadata().clone();
        Ok(Response::new(
            self.rotate_key(&metadata, request.into_inner()).await?,
        ))
    }

    async fn revoke_api_key(
        &self,
        request: Request<RevokeApiKeyRequest>,
    ) -> Result<Response<RevokeApiKeyResponse>, Status> {
        let metadata = request.metadata().clone();
        Ok(Response::new(
            self.revoke_key(&metadata, request.into_inner()).await?,
        ))
    }

    async fn register(
        &self,
        request: Request<RegisterRequest>,
    ) -> Result<Response<SignInResponse>, Status> {
        let answer = sign_in_api::register(&self.state, request.into_inner()).await?;
        Ok(Response::new(answer))
    }

    async fn login(
        &self,
        request: Request<LoginRequest>,
    ) -> Result<Response<SignInResponse>, Status> {
        let answer = sign_in_api::login(&self.state, request.into_inner()).await?;
        Ok(Response::new(answer))
    }

    async fn upgrade_guest(
        &self,
        request: Request<UpgradeGuestRequest>,
    ) -> Result<Response<AccountSummary>, Status> {
        Ok(Response::new(
            sign_in_api::upgrade_guest(&self.state, request).await?,
        ))
    }

    async fn authenticate_device(
        &self,
        request: Request<AuthenticateDeviceRequest>,
    ) -> Result<Response<SignInResponse>, Status> {
        let answer = sign_in_api::authenticate_device(&self.state, request.into_inner()).await?;
        Ok(Response::new(answer))
    }

    async fn link_device(
        &self,
        request: Request<LinkDeviceRequest>,
    ) -> Result<Response<LinkDeviceResponse>, Status> {
        Ok(Response::new(
            sign_in_api::link_device(&self.state, request).await?,
        ))
    }
}

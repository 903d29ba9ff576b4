//! The session RPCs of AccountService: Refresh (rotation, with reuse
//! detection), Logout, and a person's own sessions (ListSessions,
//! RevokeSession). Tokens are never logged, never listed.

use skit_api::{ApiError, ErrorCode, timestamp};
use skit_proto::v1::{
    ListSessionsResponse, LogoutResponse, RefreshRequest, RevokeSessionRequest,
    RevokeSessionResponse, Session, SessionSummary,
};
use skit_store::{CredentialKind, RefreshRefusal};
use time::OffsetDateTime;
use tonic::metadata::MetadataMap;

use crate::account_service::AccountApi;
use crate::error::{account_disabled, store_error};
use crate::sessions::SessionDraft;

fn unauthenticated(reason: &'static str, message: &str) -> ApiError {
    ApiError::new(ErrorCode::Unauthenticated, reason, message)
}

impl AccountApi {
    #[tracing::instrument(skip_all)]
    pub(crate) async fn refresh_session(&self, req: RefreshRequest) -> Result<Session, ApiError> {
        if req.refresh_token.is_empty() {
            return Err(ApiError::invalid("refresh_token", "required"));
        }
        let hash = skit_store::token_hash(&req.refresh_token);
        // The session id is the used token's, set by the store.
        let draft = SessionDraft::in_session(String::new(), &self.state.lifetimes)?;
        let [access, refresh] = draft.credentials();
        let rotated = self
            .state
            .store
            .rotate_refresh(&hash, access, refresh)
            .await
            .map_err(store_error)?;
        match rotated {
            Ok((used, _)) => {
                let session_id = used
                    .session_id
                    .ok_or_else(|| ApiError::invariant("a refresh token of no session"))?;
                tracing::info!(account = %used.account_id, session = %session_id, "session refreshed");
                let draft = SessionDraft {
                    session_id,
                    ..draft
                };
                Ok(draft.issued(used.account_id).message())
            }
            Err(RefreshRefusal::Unknown) => Err(ApiError::unauthenticated("unknown refresh token")),
            Err(RefreshRefusal::Expired) => Err(unauthenticated(
                "token_expired",
                "the refresh token has expired: sign in again",
            )),
            Err(RefreshRefusal::Revoked) => Err(unauthenticated(
                "token_revoked",
                "the refresh token was revoked: sign in again",
            )),
            Err(RefreshRefusal::AccountDisabled { account, status }) => {
                Err(account_disabled(account, status))
            }
            Err(RefreshRefusal::Reused) => {
                tracing::warn!("a used refresh token came back: its session is revoked");
                Err(unauthenticated(
                    "refresh_token_reused",
                    "this refresh token was used before, so someone else may hold it: its \
                     session is revoked; sign in again",
                ))
            }
        }
    }

    #[tracing::instrument(skip_all)]
    pub(crate) async fn log_out(&self, metadata: &MetadataMap) -> Result<LogoutResponse, ApiError> {
        let caller = self.state.auth.caller(metadata).await?;
        let account = caller.account.id;
        let store = &self.state.store;
        match (&caller.credential.kind, &caller.credential.session_id) {
            (CredentialKind::Operator, _) => {
                return Err(ApiError::failed_precondition(
                    "the operator token cannot log out: configure a new one to replace it",
                ));
            }
            // A JWT's stand-in: the identity provider ends those.
            _ if caller.credential.id.0 == 0 => {
                return Err(ApiError::failed_precondition(
                    "a JWT of the identity provider is ended there, not here",
                ));
            }
            (_, Some(session)) => {
                let revoked = store
                    .revoke_session(account, session, "logout")
                    .await
                    .map_err(store_error)?;
                self.state.auth.forget(&revoked);
                tracing::info!(%account, %session, "logged out");
            }
            (_, None) => {
                store
                    .revoke_credential(account, caller.credential.id, "logout")
                    .await
                    .map_err(store_error)?;
                self.state.auth.forget([&caller.credential.token_hash]);
                tracing::info!(%account, credential = %caller.credential.id, "logged out");
            }
        }
        Ok(LogoutResponse {})
    }

    #[tracing::instrument(skip_all)]
    pub(crate) async fn own_sessions(
        &self,
        metadata: &MetadataMap,
    ) -> Result<ListSessionsResponse, ApiError> {
        let caller = self.state.auth.caller(metadata).await?;
        let sessions = self
            .state
            .store
            .sessions_of(caller.account.id, OffsetDateTime::now_utc())
            .await
            .map_err(store_error)?;
        let current = caller.credential.session_id.as_deref();
        Ok(ListSessionsResponse {
            sessions: sessions
                .into_iter()
                .map(|s| SessionSummary {
                    current: current == Some(s.session_id.as_str()),
                    session_id: s.session_id,
                    created_at: Some(timestamp(s.created_at)),
                    refreshed_at: Some(timestamp(s.refreshed_at)),
                    expires_at: s.expires_at.map(timestamp),
                })
                .collect(),
        })
    }

    #[tracing::instrument(skip_all)]
    pub(crate) async fn revoke_own_session(
        &self,
        metadata: &MetadataMap,
        req: RevokeSessionRequest,
    ) -> Result<RevokeSessionResponse, ApiError> {
        let caller = self.state.auth.caller(metadata).await?;
        if req.session_id.is_empty() {
            return Err(ApiError::invalid("session_id", "required"));
        }
        let revoked = self
            .state
            .store
            .revoke_session(caller.account.id, &req.session_id, "revoked")
            .await
            .map_err(store_error)?;
        self.state.auth.forget(&revoked);
        if revoked.is_empty() {
            return Err(ApiError::not_found(format!(
                "you have no live session {:?}",
                req.session_id
            )));
        }
        tracing::info!(account = %caller.account.id, session = %req.session_id, "session revoked");
        Ok(RevokeSessionResponse {})
    }
}

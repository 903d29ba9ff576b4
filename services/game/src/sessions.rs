//! Sessions: what signing in answers. A session is a family of
//! credentials sharing a `session_id`: an access token that authenticates
//! calls for `SKIT_ACCESS_TOKEN_TTL_MS`, and a refresh token that buys the
//! next access and refresh tokens once, for `SKIT_REFRESH_TOKEN_TTL_MS`.
//! A refresh token used twice means someone holds a copy: the whole family
//! is revoked.
//!
//! For the other sign-ins (register, login, device, guest upgrade):
//! [`issue_session`] gives an existing account a new session, and
//! [`IssuedSession::message`] is the API's `Session`. To create an account
//! and its first session atomically, mint a [`SessionDraft`], store the
//! account with [`SessionDraft::credentials`], then
//! [`SessionDraft::issued`].

use std::time::Duration;

use skit_api::{ApiError, timestamp};
use skit_proto::v1;
use skit_store::{AccountId, CredentialKind, NewCredential};
use time::OffsetDateTime;

use crate::config::Lifetimes;
use crate::error::store_error;
use crate::secrets::{new_token, random_hex};
use crate::state::AppState;

/// A new session's secrets and expiries, before its account holds it.
#[derive(Debug, Clone)]
pub struct SessionDraft {
    pub session_id: String,
    pub access_token: String,
    pub access_expires_at: OffsetDateTime,
    pub refresh_token: String,
    pub refresh_expires_at: OffsetDateTime,
}

/// A session an account holds: shown to its client once.
#[derive(Debug, Clone)]
pub struct IssuedSession {
    pub account_id: AccountId,
    pub session_id: String,
    pub access_token: String,
    pub access_expires_at: OffsetDateTime,
    pub refresh_token: String,
    pub refresh_expires_at: OffsetDateTime,
}

/// `now + d`, saturating far in the future.
pub fn after(now: OffsetDateTime, d: Duration) -> OffsetDateTime {
    time::Duration::try_from(d)
        .ok()
        .and_then(|d| now.checked_add(d))
        .unwrap_or(OffsetDateTime::new_utc(
            time::Date::MAX,
            time::Time::MIDNIGHT,
        ))
}

impl SessionDraft {
    /// Fresh secrets for a new session, expiring as `lifetimes` say.
    pub fn new(lifetimes: &Lifetimes) -> Result<Self, ApiError> {
        Self::in_session(format!("ses_{}", random_hex::<16>()?), lifetimes)
    }

    /// Fresh secrets for the next tokens of `session_id`.
    pub fn in_session(session_id: String, lifetimes: &Lifetimes) -> Result<Self, ApiError> {
        // Whole microseconds, as the databases keep them, so an expiry
        // answered now reads the same when listed later.
        let now = OffsetDateTime::now_utc();
        let now = now
            .replace_nanosecond(now.nanosecond() / 1_000 * 1_000)
            .unwrap_or(now);
        Ok(Self {
            session_id,
            access_token: new_token()?,
            access_expires_at: after(now, lifetimes.access),
            refresh_token: new_token()?,
            refresh_expires_at: after(now, lifetimes.refresh),
        })
    }

    /// The access and refresh credentials to store (hashes only).
    pub fn credentials(&self) -> [NewCredential; 2] {
        let credential = |kind, token: &str, expires_at| NewCredential {
            kind,
            token_hash: skit_store::token_hash(token),
            session_id: Some(self.session_id.clone()),
            scopes: Vec::new(),
            label: None,
            expires_at: Some(expires_at),
        };
        [
            credential(
                CredentialKind::Access,
                &self.access_token,
                self.access_expires_at,
            ),
            credential(
                CredentialKind::Refresh,
                &self.refresh_token,
                self.refresh_expires_at,
            ),
        ]
    }

    /// The session, once `account_id` holds its credentials.
    pub fn issued(self, account_id: AccountId) -> IssuedSession {
        IssuedSession {
            account_id,
            session_id: self.session_id,
            access_token: self.access_token,
            access_expires_at: self.access_expires_at,
            refresh_token: self.refresh_token,
            refresh_expires_at: self.refresh_expires_at,
        }
    }
}

impl IssuedSession {
    /// The API's `Session`.
    pub fn message(&self) -> v1::Session {
        v1::Session {
            account_id: self.account_id.to_string(),
            session_id: self.session_id.clone(),
            access_token: self.access_token.clone(),
            access_expires_at: Some(timestamp(self.access_expires_at)),
            refresh_token: self.refresh_token.clone(),
            refresh_expires_at: Some(timestamp(self.refresh_expires_at)),
        }
    }
}

/// A new session for the existing account `account_id`.
#[allow(
    dead_code,
    reason = "the sign-ins of existing accounts (register, login, device) answer with it"
)]
#[tracing::instrument(skip(state))]
pub async fn issue_session(
    state: &AppState,
    account_id: AccountId,
) -> Result<IssuedSession, ApiError> {
    let draft = SessionDraft::new(&state.lifetimes)?;
    state
        .store
        .add_credentials(account_id, &draft.credentials())
        .await
        .map_err(store_error)?;
    tracing::info!(session = %draft.session_id, "session issued");
    Ok(draft.issued(account_id))
}

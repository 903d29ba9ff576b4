//! Who is calling: the bearer token in `authorization` metadata, resolved
//! to an account by its hash. The configured operator token belongs to an
//! operator account created at start-up, so operators act through the same
//! path (and have an id to create games under).
//!
//! Every call authenticates, so known tokens are kept in memory: without
//! the cache two of a move's three database round trips (its GetView and
//! its SubmitMove) were this lookup. An account an operator disables or
//! bans is refused (UNAUTHENTICATED, reason `account_disabled`): this
//! instance forgets its cached tokens at once ([`Authenticator::forget_account`]);
//! the time limit bounds how long another instance's cache may still
//! hold them.
//!
//! With an identity provider configured (`jwks`), a bearer token that is a
//! JWT is verified instead (`jwt`) and acts as its subject's account
//! (`jwt_accounts`), so a JWT works wherever a token does. Verified JWTs
//! are not cached: each call checks the signature, expiry and account again.

use std::time::Duration;

use rand::TryRngCore;
use rand::rngs::OsRng;
use skit_api::{ApiError, ErrorCode, Secret, bearer_token};
use skit_store::{Account, AccountId, AccountKind, NewAccount, Store, token_hash};
use tonic::metadata::MetadataMap;

use crate::error::store_error;
use crate::jwt::{JwtVerifier, looks_like_jwt};
use crate::jwt_accounts;

/// An authenticated caller.
#[derive(Debug, Clone)]
pub struct Caller {
    pub account: Account,
}

impl Caller {
    /// Operators may create accounts and act for any seat.
    pub fn is_operator(&self) -> bool {
        self.account.kind == AccountKind::Operator
    }
}

/// How many tokens are kept, and for how long.
const CACHED_TOKENS: u64 = 100_000;
const CACHE_TIME: Duration = Duration::from_secs(300);

/// Resolves bearer tokens to accounts, remembering the ones it has seen.
#[derive(Debug, Clone)]
pub struct Authenticator {
    store: Store,
    /// Token hash -> its account. Unknown tokens are not cached.
    known: moka::sync::Cache<String, Account>,
    /// Checks bearer JWTs, if the operator configured an identity provider.
    jwt: Option<JwtVerifier>,
}

impl Authenticator {
    pub fn new(store: Store, jwt: Option<JwtVerifier>) -> Self {
        let known = moka::sync::Cache::builder()
            .max_capacity(CACHED_TOKENS)
            .time_to_live(CACHE_TIME)
            .support_invalidation_closures()
            .build();
        Self { store, known, jwt }
    }

    /// The caller named by the request's bearer token, if its account is
    /// active.
    pub async fn caller(&self, metadata: &MetadataMap) -> Result<Caller, ApiError> {
        let token = bearer_token(metadata)?;
        let account = match &self.jwt {
            Some(jwt) if looks_like_jwt(token) => {
                let verified = jwt.verify(token)?;
                jwt_accounts::account_for(&self.store, &verified).await?
            }
            _ => self.by_token(token).await?,
        };
        if !account.is_active() {
            return Err(ApiError::new(
                ErrorCode::Unauthenticated,
                "account_disabled",
                format!("account {} is {}", account.id, account.status.as_str()),
            ));
        }
        Ok(Caller { account })
    }

    /// The account of one of the service's own tokens, cached.
    async fn by_token(&self, token: &str) -> Result<Account, ApiError> {
        let hash = token_hash(token);
        if let Some(account) = self.known.get(&hash) {
            return Ok(account);
        }
        let account = self
            .store
            .account_by_token_hash(&hash)
            .await
            .map_err(store_error)?
            .ok_or(ApiError::unauthenticated("unknown token"))?;
        self.known.insert(hash, account.clone());
        Ok(account)
    }

    /// Drops the cached tokens of account `id` (its status changed), so the
    /// next call reads it again.
    pub fn forget_account(&self, id: AccountId) {
        if let Err(error) = self.known.invalidate_entries_if(move |_, a| a.id == id) {
            tracing::warn!(%error, "cannot drop an account's cached tokens; clearing them all");
            self.known.invalidate_all();
        }
    }
}

/// A new bearer token: 32 random bytes, hex.
pub fn new_token() -> Result<String, ApiError> {
    let mut bytes = [0u8; 32];
    OsRng
        .try_fill_bytes(&mut bytes)
        .map_err(|e| ApiError::internal("no randomness for a token", &e))?;
    Ok(format!("skt_{}", hex::encode(bytes)))
}

/// Makes sure the configured operator token has an operator account.
pub async fn ensure_operator(store: &Store, token: &Secret) -> Result<Account, skit_store::Error> {
    let hash = token_hash(token.expose());
    if let Some(account) = store.account_by_token_hash(&hash).await? {
        return Ok(account);
    }
    let new = NewAccount {
        name: "operator".into(),
        kind: AccountKind::Operator,
        token_hash: hash.clone(),
    };
    match store.create_account(new).await {
        // Another instance created it first.
        Err(skit_store::Error::TokenTaken) => store
            .account_by_token_hash(&hash)
            .await?
            .ok_or(skit_store::Error::TokenTaken),
        other => other,
    }
}

//! Who is calling, and what they may do: the bearer token in
//! `authorization` metadata, resolved by its hash to a live credential and
//! its account. A credential's kind gives its scopes: sessions' access
//! tokens may `play` and `read`, API keys what they were made with, the
//! operator credential everything and `admin`.
//!
//! Every call authenticates, so known tokens are kept in memory: without
//! the cache two of a move's three database round trips (its GetView and
//! its SubmitMove) were this lookup. A revocation on any instance appends
//! to the store's revocation feed; [`Authenticator::follow_revocations`]
//! reads it every `SKIT_REVOCATION_POLL_MS` and drops what it names. The
//! cache is trusted only while the feed was read within three intervals,
//! so a revoked credential is refused everywhere within a second even if
//! reading the feed fails (lookups then go to the database). An account an
//! operator disables or bans is refused (UNAUTHENTICATED, reason
//! `account_disabled`) the same way: this instance forgets its cached
//! credentials at once ([`Authenticator::forget_account`]), the others
//! when the feed names the account.
//!
//! With an identity provider configured (`jwks`), a bearer token that is a
//! JWT is verified instead (`jwt`) and acts as its subject's account
//! (`jwt_accounts`) like a session's access token (`play`, `read`), so a
//! JWT works wherever a token does. Verified JWTs are not cached: each call
//! checks the signature, expiry and account again. The provider, not this
//! service, ends them.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use skit_api::{ApiError, ErrorCode, bearer_token};
use skit_store::{
    Account, AccountId, AccountKind, Credential, CredentialId, CredentialKind, Scope, Store,
    token_hash,
};
use time::OffsetDateTime;
use tonic::metadata::MetadataMap;

use crate::error::{account_disabled, store_error};
use crate::jwt::{JwtVerifier, looks_like_jwt};
use crate::jwt_accounts;

/// An authenticated caller: the account and the credential it called with.
#[derive(Debug, Clone)]
pub struct Caller {
    pub account: Account,
    pub credential: Credential,
}

impl Caller {
    /// Operators may create accounts and act for any seat.
    pub fn is_operator(&self) -> bool {
        self.account.kind == AccountKind::Operator
    }

    /// What the calling credential may do.
    pub fn scopes(&self) -> Vec<Scope> {
        scopes_of(&self.credential)
    }

    /// PERMISSION_DENIED (`missing_scope`, metadata `scope`) unless the
    /// calling credential has `scope`.
    pub fn require(&self, scope: Scope) -> Result<(), ApiError> {
        if self.scopes().contains(&scope) {
            return Ok(());
        }
        Err(ApiError::missing_scope(scope.as_str()))
    }
}

/// The scopes a credential's kind gives it.
pub fn scopes_of(credential: &Credential) -> Vec<Scope> {
    match credential.kind {
        CredentialKind::Access | CredentialKind::Refresh => vec![Scope::Play, Scope::Read],
        CredentialKind::ApiKey => credential.scopes.clone(),
        CredentialKind::Operator => vec![Scope::Play, Scope::Read, Scope::Admin],
    }
}

/// How many tokens are kept, and for how long at most.
const CACHED_TOKENS: u64 = 100_000;
const CACHE_TIME: Duration = Duration::from_secs(300);
/// How far back each read of the feed looks by time, beside reading on by
/// id: rows whose ids committed out of order, and lookups that cached a
/// credential while its revocation was being read.
const FEED_LOOKBACK: time::Duration = time::Duration::seconds(10);

#[derive(Debug, Clone)]
struct Known {
    account: Account,
    credential: Credential,
}

/// Resolves bearer tokens to callers, remembering the ones it has seen.
#[derive(Debug, Clone)]
pub struct Authenticator {
    store: Store,
    /// Token hash -> its credential and account. Unknown tokens are not
    /// cached.
    known: moka::sync::Cache<String, Known>,
    /// When the feed was last read in full, in ms after `epoch`
    /// (`u64::MAX`: never).
    fed_at: Arc<AtomicU64>,
    epoch: Instant,
    /// Cached entries are trusted only while the feed was read this
    /// recently.
    trust: Duration,
    /// Checks bearer JWTs, if the operator configured an identity provider.
    jwt: Option<JwtVerifier>,
}

impl Authenticator {
    /// `poll`: how often [`Self::follow_revocations`] reads the feed;
    /// `jwt`: the identity provider's verifier, if one is configured.
    pub fn new(store: Store, poll: Duration, jwt: Option<JwtVerifier>) -> Self {
        let known = moka::sync::Cache::builder()
            .max_capacity(CACHED_TOKENS)
            .time_to_live(CACHE_TIME)
            .support_invalidation_closures()
            .build();
        Self {
            store,
            known,
            fed_at: Arc::new(AtomicU64::new(u64::MAX)),
            epoch: Instant::now(),
            trust: poll * 3,
            jwt,
        }
    }

    /// The caller named by the request's bearer token, whatever its
    /// scopes (calls about the credential itself: WhoAmI, Logout).
    pub async fn caller(&self, metadata: &MetadataMap) -> Result<Caller, ApiError> {
        let token = bearer_token(metadata)?;
        let hash = token_hash(token);
        let now = OffsetDateTime::now_utc();
        let known = match &self.jwt {
            Some(jwt) if looks_like_jwt(token) => self.by_jwt(jwt, token, hash.clone()).await?,
            _ => match self.cached(&hash) {
                Some(known) => known,
                None => self.look_up(&hash).await?,
            },
        };
        if known.credential.expired(now) {
            self.known.invalidate(&hash);
            return Err(ApiError::new(
                ErrorCode::Unauthenticated,
                "token_expired",
                "the token has expired: refresh the session (Refresh) or sign in again",
            ));
        }
        if !known.account.is_active() {
            return Err(disabled(&known.account));
        }
        Ok(Caller {
            account: known.account,
            credential: known.credential,
        })
    }

    /// The caller, if its credential has `scope` (else PERMISSION_DENIED,
    /// reason `missing_scope`).
    pub async fn authorize(
        &self,
        metadata: &MetadataMap,
        scope: Scope,
    ) -> Result<Caller, ApiError> {
        let caller = self.caller(metadata).await?;
        caller.require(scope)?;
        Ok(caller)
    }

    /// Drops these credentials from this instance's cache at once (others
    /// learn of them from the feed).
    pub fn forget<'a>(&self, hashes: impl IntoIterator<Item = &'a String>) {
        for hash in hashes {
            self.known.invalidate(hash);
        }
    }

    /// Drops the cached credentials of account `id` (its status changed),
    /// so the next call reads it again.
    pub fn forget_account(&self, id: AccountId) {
        if let Err(error) = self
            .known
            .invalidate_entries_if(move |_, k| k.account.id == id)
        {
            tracing::warn!(%error, "cannot drop an account's cached tokens; clearing them all");
            self.known.invalidate_all();
        }
    }

    fn cached(&self, hash: &str) -> Option<Known> {
        let fed_at = self.fed_at.load(Ordering::Acquire);
        let fresh = fed_at != u64::MAX
            && self.elapsed_ms().saturating_sub(fed_at) <= duration_ms(self.trust);
        fresh.then(|| self.known.get(hash)).flatten()
    }

    /// A verified JWT's account, with a credential that stands for the JWT
    /// (stored nowhere: id 0, no session).
    async fn by_jwt(
        &self,
        jwt: &JwtVerifier,
        token: &str,
        hash: String,
    ) -> Result<Known, ApiError> {
        let verified = jwt.verify(token)?;
        let account = jwt_accounts::account_for(&self.store, &verified).await?;
        let credential = Credential {
            id: CredentialId(0),
            account_id: account.id,
            kind: CredentialKind::Access,
            token_hash: hash,
            session_id: None,
            scopes: Vec::new(),
            label: None,
            created_at: OffsetDateTime::now_utc(),
            expires_at: None,
            revoked_at: None,
            revoked_reason: None,
        };
        Ok(Known {
            account,
            credential,
        })
    }

    async fn look_up(&self, hash: &str) -> Result<Known, ApiError> {
        let credential = self
            .store
            .credential_by_hash(hash)
            .await
            .map_err(store_error)?
            .ok_or(ApiError::unauthenticated("unknown token"))?;
        if credential.kind == CredentialKind::Refresh {
            return Err(ApiError::unauthenticated(
                "a refresh token only buys a new session (Refresh); send the access token",
            ));
        }
        if credential.revoked_at.is_some() {
            // Disabling an account revoked its credentials: say why.
            let account = self
                .store
                .account(credential.account_id)
                .await
                .map_err(store_error)?;
            if let Some(account) = account.filter(|a| !a.is_active()) {
                return Err(disabled(&account));
            }
            return Err(ApiError::new(
                ErrorCode::Unauthenticated,
                "token_revoked",
                "the token was revoked: sign in again",
            ));
        }
        let account = self
            .store
            .account(credential.account_id)
            .await
            .map_err(store_error)?
            .ok_or_else(|| ApiError::invariant("a credential without its account"))?;
        let known = Known {
            account,
            credential,
        };
        self.known.insert(hash.to_owned(), known.clone());
        Ok(known)
    }

    /// Reads the revocation feed every `poll`, forever, dropping the
    /// cached credentials and accounts it names.
    pub async fn follow_revocations(self, poll: Duration) {
        let mut after = match self.store.last_revocation().await {
            Ok(last) => last,
            Err(e) => {
                tracing::warn!(error = %e, "cannot read the revocation feed; reading it all");
                0
            }
        };
        let mut ticks = tokio::time::interval(poll);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticks.tick().await;
            let started = self.elapsed_ms();
            let since = OffsetDateTime::now_utc() - FEED_LOOKBACK;
            match self.store.revocations_since(after, since).await {
                Ok(rows) => {
                    for row in rows {
                        after = after.max(row.id);
                        if let Some(hash) = &row.token_hash {
                            self.known.invalidate(hash);
                        }
                        if let Some(account) = row.account_id {
                            self.forget_account(account);
                        }
                    }
                    self.fed_at.store(started, Ordering::Release);
                }
                Err(e) => tracing::warn!(error = %e, "cannot read the revocation feed"),
            }
        }
    }

    fn elapsed_ms(&self) -> u64 {
        duration_ms(self.epoch.elapsed())
    }
}

fn duration_ms(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// The refusal of a disabled or banned account's credentials.
fn disabled(account: &Account) -> ApiError {
    account_disabled(account.id, account.status)
}

//! Who is calling: the bearer token in `authorization` metadata, resolved
//! to an account by its hash. The configured operator token belongs to an
//! operator account created at start-up, so operators act through the same
//! path (and have an id to create games under).

use rand::TryRngCore;
use rand::rngs::OsRng;
use skit_store::{Account, AccountKind, NewAccount, Store, token_hash};
use tonic::metadata::MetadataMap;

use crate::config::Secret;
use crate::error::ApiError;

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

pub async fn caller(store: &Store, metadata: &MetadataMap) -> Result<Caller, ApiError> {
    let header = metadata
        .get("authorization")
        .ok_or(ApiError::Unauthenticated(
            "missing authorization: Bearer <token>",
        ))?;
    let token = header
        .to_str()
        .ok()
        .and_then(|h| {
            h.strip_prefix("Bearer ")
                .or_else(|| h.strip_prefix("bearer "))
        })
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .ok_or(ApiError::Unauthenticated(
            "authorization must be Bearer <token>",
        ))?;
    let account = store
        .account_by_token_hash(&token_hash(token))
        .await?
        .ok_or(ApiError::Unauthenticated("unknown token"))?;
    Ok(Caller { account })
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

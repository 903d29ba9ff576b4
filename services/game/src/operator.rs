//! The operator credential: the configured `SKIT_OPERATOR_TOKEN` belongs
//! to the operator account, so operators act through the same path as
//! everyone (and have an id to create games under).
//!
//! Rotation with an overlap, as for API keys: an instance that starts with
//! a token the database does not know makes it the operator account's
//! credential, and every other operator credential expires after
//! `SKIT_OPERATOR_TOKEN_GRACE_MS` (an hour): until then old and new are
//! both valid, so instances restart onto the new token one at a time, and
//! the services that call with it (the matchmaker and league service
//! follow their token file; the bot worker) switch, with no request
//! refused. A grace of 0 revokes the old token at once. An instance
//! started with a token that was replaced keeps it during the grace,
//! without taking the credential back, and refuses to start once it
//! expired (or was revoked), so a stale configuration cannot return.

use std::time::Duration;

use anyhow::{Context, bail};
use skit_api::Secret;
use skit_store::{
    Account, AccountKind, CredentialKind, NewAccount, NewCredential, Store, token_hash,
};
use time::OffsetDateTime;

/// Makes the configured token the operator credential, the others phased
/// out over `grace`; returns the operator account.
pub async fn ensure_operator(
    store: &Store,
    token: &Secret,
    grace: Duration,
) -> anyhow::Result<Account> {
    let hash = token_hash(token.expose());
    let credential = NewCredential {
        kind: CredentialKind::Operator,
        token_hash: hash.clone(),
        session_id: None,
        scopes: Vec::new(),
        label: None,
        expires_at: None,
    };
    let account = match store.credential_by_hash(&hash).await? {
        Some(known) if known.kind != CredentialKind::Operator => {
            bail!("SKIT_OPERATOR_TOKEN is another account's credential: choose a new one")
        }
        Some(known) if known.revoked_at.is_some() || known.expired(OffsetDateTime::now_utc()) => {
            bail!(
                "SKIT_OPERATOR_TOKEN was replaced by a newer operator token: configure the current \
                 one (or a new one)"
            )
        }
        Some(known) => {
            let account = store
                .account(known.account_id)
                .await?
                .context("the operator credential's account is gone")?;
            if let Some(until) = known.expires_at {
                // Replaced, and still valid for the rest of the grace.
                tracing::warn!(%until, "SKIT_OPERATOR_TOKEN was replaced by a newer operator token; it works until then: restart with the new one");
                return Ok(account);
            }
            account
        }
        None => match store.accounts(Some(AccountKind::Operator), 1).await?.pop() {
            Some(account) => account,
            None => create_operator(store, &credential).await?,
        },
    };
    let replaced = match grace.is_zero() {
        true => {
            store
                .replace_operator_credential(account.id, &credential)
                .await?
        }
        false => {
            let until = OffsetDateTime::now_utc() + grace;
            store
                .phase_out_operator_credentials(account.id, &credential, until)
                .await?
        }
    };
    if replaced > 0 {
        tracing::info!(
            replaced,
            grace_ms = grace.as_millis(),
            "the configured operator token replaced the previous one, which works for the grace"
        );
    }
    Ok(account)
}

async fn create_operator(store: &Store, credential: &NewCredential) -> anyhow::Result<Account> {
    let new = NewAccount {
        name: "operator".into(),
        kind: AccountKind::Operator,
        token_hash: credential.token_hash.clone(),
    };
    match store
        .create_account_with_credentials(new, std::slice::from_ref(credential))
        .await
    {
        Ok((account, _)) => Ok(account),
        // Another instance created it first.
        Err(skit_store::Error::TokenTaken) => {
            let known = store
                .credential_by_hash(&credential.token_hash)
                .await?
                .context("the operator credential vanished")?;
            store
                .account(known.account_id)
                .await?
                .context("the operator credential's account is gone")
        }
        // Another instance created it first under another token (a rotation
        // while both started): take that account.
        Err(e) => match store.accounts(Some(AccountKind::Operator), 1).await?.pop() {
            Some(account) => Ok(account),
            None => Err(e.into()),
        },
    }
}

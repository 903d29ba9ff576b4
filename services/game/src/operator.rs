//! The operator credential: the configured `SKIT_OPERATOR_TOKEN` belongs
//! to the operator account, so operators act through the same path as
//! everyone (and have an id to create games under).
//!
//! Rotation: an instance that starts with a token the database does not
//! know makes it the operator account's credential and revokes every
//! other operator credential, through the revocation feed, so the old
//! token is refused on every instance within a second. An instance started
//! with a token that was replaced this way refuses to start, so a stale
//! configuration cannot take the operator credential back. Run every
//! instance (and the matchmaker and bot workers, which call with it) with
//! the new token.

use anyhow::{Context, bail};
use skit_api::Secret;
use skit_store::{
    Account, AccountKind, CredentialKind, NewAccount, NewCredential, Store, token_hash,
};

/// Makes the configured token the one live operator credential; returns
/// the operator account.
pub async fn ensure_operator(store: &Store, token: &Secret) -> anyhow::Result<Account> {
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
        Some(known) if known.revoked_at.is_some() => bail!(
            "SKIT_OPERATOR_TOKEN was replaced by a newer operator token: configure the current \
             one (or a new one)"
        ),
        Some(known) => store
            .account(known.account_id)
            .await?
            .context("the operator credential's account is gone")?,
        None => match store.accounts(Some(AccountKind::Operator), 1).await?.pop() {
            Some(account) => account,
            None => create_operator(store, &credential).await?,
        },
    };
    let replaced = store
        .replace_operator_credential(account.id, &credential)
        .await?;
    if replaced > 0 {
        tracing::info!(
            replaced,
            "the configured operator token replaced the previous one"
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
        Err(e) => Err(e.into()),
    }
}

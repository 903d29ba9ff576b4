//! People's own sign-ins: registering a name and a password, logging in
//! with them, and a guest becoming such a person (keeping its account id,
//! and with it its games and ratings). Each answers the account; the
//! session it signs in with is `sessions`'.
//!
//! A wrong password and an unknown name are one answer (UNAUTHENTICATED,
//! reason `wrong_password`), given after the same work, so neither the
//! answer nor its time tells whether a name is registered.

use skit_api::{ApiError, ErrorCode};
use skit_store::{Account, AccountKind, NewAccount, Registration, Store, token_hash};

use crate::error::store_error;
use crate::secrets::new_token;
use crate::{names, passwords};

/// A name and a password as a request carries them, checked.
struct Checked {
    name: String,
    password: String,
}

fn checked(name: &str, password: &str) -> Result<Checked, ApiError> {
    let name = names::registered("name", name)?;
    passwords::check("password", password)?;
    Ok(Checked {
        name,
        password: password.to_owned(),
    })
}

fn name_taken() -> ApiError {
    ApiError::new(
        ErrorCode::AlreadyExists,
        "name_taken",
        "this name is registered already, or one that differs only in case or form or looks \
         like it (docs/accounts.md, \"Names\")",
    )
    .with_violation("name", "registered already")
}

fn not_a_guest() -> ApiError {
    ApiError::new(
        ErrorCode::FailedPrecondition,
        "not_a_guest",
        "only a guest account can be upgraded; this one is registered already",
    )
}

async fn registration(checked: Checked) -> Result<(String, Registration), ApiError> {
    let password_hash = passwords::hash(checked.password).await?;
    let registration = names::registration(&checked.name, Some(password_hash));
    Ok((checked.name, registration))
}

/// A new player account named `name`, signing in with `password`.
pub async fn register(store: &Store, name: &str, password: &str) -> Result<Account, ApiError> {
    let checked = checked(name, password)?;
    // Refused before the hashing's cost when it is known to be taken.
    if store
        .person_by_name_key(&names::key(&checked.name))
        .await
        .map_err(store_error)?
        .is_some()
    {
        return Err(name_taken());
    }
    let (name, registration) = registration(checked).await?;
    let account = NewAccount {
        name,
        kind: AccountKind::Player,
        // No bearer token of its own: it signs in with sessions.
        token_hash: token_hash(&new_token()?),
    };
    match store.register(account, registration).await {
        Ok(account) => {
            tracing::info!(account = %account.id, "person registered");
            Ok(account)
        }
        Err(skit_store::Error::NameTaken) => Err(name_taken()),
        Err(e) => Err(store_error(e)),
    }
}

/// The account registered as `name`, if `password` is its password. A
/// name whose key changed with the name rule is also tried under its old
/// key, which an account registered before the change may still hold
/// (`rekey`): for such a name both are always tried, so the time taken
/// depends on the name typed, never on what is registered.
pub async fn login(store: &Store, name: &str, password: &str) -> Result<Account, ApiError> {
    let key = names::key(name);
    let legacy = names::legacy_key(name);
    let mut keys = vec![key];
    if legacy != keys[0] {
        keys.push(legacy);
    }
    let mut signed_in = None;
    for key in keys {
        let found = store.person_by_name_key(&key).await.map_err(store_error)?;
        let (account, stored) = match found {
            Some((account, stored)) => (Some(account), stored),
            None => (None, None),
        };
        let matches = passwords::verify(password.to_owned(), stored).await?;
        if let Some(account) = account.filter(|_| matches) {
            signed_in.get_or_insert(account);
        }
    }
    signed_in.ok_or_else(|| {
        ApiError::new(
            ErrorCode::Unauthenticated,
            "wrong_password",
            "no account has this name and password",
        )
    })
}

/// Makes the guest `caller` a player named `name` with `password`.
pub async fn upgrade_guest(
    store: &Store,
    caller: &Account,
    name: &str,
    password: &str,
) -> Result<Account, ApiError> {
    if caller.kind != AccountKind::Guest {
        return Err(not_a_guest());
    }
    let checked = checked(name, password)?;
    let (name, registration) = registration(checked).await?;
    match store.upgrade_guest(caller.id, name, registration).await {
        Ok(Some(account)) => {
            tracing::info!(account = %account.id, "guest registered");
            Ok(account)
        }
        // Upgraded by a concurrent call.
        Ok(None) => Err(not_a_guest()),
        Err(skit_store::Error::NameTaken) => Err(name_taken()),
        Err(e) => Err(store_error(e)),
    }
}

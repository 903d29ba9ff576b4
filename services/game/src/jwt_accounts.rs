//! The account a verified JWT acts as: the one its issuer and subject
//! signed in as before, or, the first time they are seen, a new player
//! account named after the configured claim (`preferred_username`), made a
//! valid registered name and unique (`ann`, then `ann-2`, `ann-3`, ...).

use skit_api::ApiError;
use skit_store::{Account, AccountKind, Identity, NewAccount, Store, token_hash};

use crate::error::store_error;
use crate::jwt::Verified;
use crate::names;
use crate::secrets::new_token;

/// Suffixes tried before a random one.
const NUMBERED_TRIES: u32 = 20;
/// The name of someone whose claim gives none usable.
const FALLBACK_NAME: &str = "player";
/// The most characters taken from the claim, leaving room for a suffix.
const CLAIM_CHARS: usize = 32;

/// The account `verified` signs in as, created on first sight.
pub async fn account_for(store: &Store, verified: &Verified) -> Result<Account, ApiError> {
    let identity = Identity {
        issuer: &verified.issuer,
        subject: &verified.subject,
    };
    if let Some(account) = store
        .account_by_identity(identity)
        .await
        .map_err(store_error)?
    {
        return Ok(account);
    }
    let base = base_name(verified.name.as_deref());
    for attempt in 1..=NUMBERED_TRIES + 1 {
        let name = match attempt {
            1 => base.clone(),
            n if n <= NUMBERED_TRIES => format!("{base}-{n}"),
            _ => format!("{base}-{}", &new_token()?[4..10]),
        };
        let account = NewAccount {
            name: name.clone(),
            kind: AccountKind::Player,
            // No bearer token of its own: it signs in with its JWTs.
            token_hash: token_hash(&new_token()?),
        };
        let registration = names::registration(&name, None);
        match store
            .create_identity_account(account, registration, identity)
            .await
        {
            Ok(account) => {
                tracing::info!(account = %account.id, "account created for an identity provider's subject");
                return Ok(account);
            }
            Err(skit_store::Error::NameTaken) => continue,
            // A concurrent first sign-in of the same subject won.
            Err(skit_store::Error::IdentityTaken) => {
                return store
                    .account_by_identity(identity)
                    .await
                    .map_err(store_error)?
                    .ok_or_else(|| ApiError::invariant("an identity taken by no account"));
            }
            Err(e) => return Err(store_error(e)),
        }
    }
    Err(ApiError::invariant("no free name for a new identity"))
}

/// The claim made a registered name: characters a registered name may not
/// hold become `-`, and a claim that still is none gives `player`.
fn base_name(claim: Option<&str>) -> String {
    let cleaned: String = claim
        .unwrap_or_default()
        .chars()
        .map(|c| if c.is_alphanumeric() { c } else { '-' })
        .take(CLAIM_CHARS)
        .collect();
    let mut name = String::new();
    for c in cleaned.trim_matches('-').chars() {
        if !(c == '-' && name.ends_with('-')) {
            name.push(c);
        }
    }
    match names::registered("name", &name) {
        Ok(name) => name,
        Err(_) => FALLBACK_NAME.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_claim_becomes_a_registered_name() {
        assert_eq!(base_name(Some("ann")), "ann");
        assert_eq!(base_name(Some("ann@example.com")), "ann-example-com");
        assert_eq!(base_name(Some("  Åsa!! ")), "Åsa");
        assert_eq!(base_name(Some("a")), "player", "too short");
        assert_eq!(base_name(None), "player");
    }
}

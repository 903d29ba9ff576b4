//! Signing in from a device (a mobile app's install): the app sends an id
//! of its own making, kept secret on the device, and the service answers a
//! session of that device's account, created the first time as a guest.
//! The person may register later (UpgradeGuest) and keeps the device; a
//! full account links further devices with LinkDevice. The id works like a
//! bearer secret, so only its hash is stored.

use skit_api::{ApiError, ErrorCode};
use skit_store::{Account, AccountKind, NewAccount, Store, token_hash};

use crate::error::store_error;
use crate::secrets::new_token;

/// The fewest characters of a device id (a UUID has 36).
pub const ID_MIN_CHARS: usize = 16;
/// The most characters of a device id.
pub const ID_MAX_CHARS: usize = 128;

/// The stored hash of the device id `value` (the request field `field`),
/// if it is [`ID_MIN_CHARS`] to [`ID_MAX_CHARS`] ASCII letters, digits and
/// `-`, `_`, `.`, `:`.
pub fn device_hash(field: &str, value: &str) -> Result<String, ApiError> {
    let length = value.chars().count();
    if !(ID_MIN_CHARS..=ID_MAX_CHARS).contains(&length) {
        return Err(ApiError::invalid(
            field,
            format!("must be {ID_MIN_CHARS} to {ID_MAX_CHARS} characters"),
        ));
    }
    if let Some((at, c)) = value
        .chars()
        .enumerate()
        .find(|(_, c)| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | ':')))
    {
        return Err(ApiError::invalid(
            field,
            format!(
                "must hold only ASCII letters, digits and - _ . : (U+{:04X} at character {at})",
                u32::from(c)
            ),
        ));
    }
    Ok(token_hash(&format!("device:{value}")))
}

/// The account the device signs in as, and whether it was created now.
pub async fn sign_in(store: &Store, device_hash: &str) -> Result<(Account, bool), ApiError> {
    if let Some(account) = store
        .account_by_device(device_hash)
        .await
        .map_err(store_error)?
    {
        return Ok((account, false));
    }
    let account = NewAccount {
        name: format!("guest-{}", &new_token()?[4..10]),
        kind: AccountKind::Guest,
        // Signs in with sessions, never with a token of its own.
        token_hash: token_hash(&new_token()?),
    };
    match store.create_device_account(account, device_hash).await {
        Ok(account) => {
            tracing::info!(account = %account.id, "account created for a device");
            Ok((account, true))
        }
        // A concurrent first sign-in from the same device won.
        Err(skit_store::Error::DeviceTaken) => store
            .account_by_device(device_hash)
            .await
            .map_err(store_error)?
            .map(|account| (account, false))
            .ok_or_else(|| ApiError::invariant("a device taken by no account")),
        Err(e) => Err(store_error(e)),
    }
}

/// Links the device to `account`: afterwards it signs in as `account`.
pub async fn link(store: &Store, account: &Account, device_hash: &str) -> Result<(), ApiError> {
    match store.link_device(device_hash, account.id).await {
        Ok(()) => Ok(()),
        Err(skit_store::Error::DeviceTaken) => Err(ApiError::new(
            ErrorCode::AlreadyExists,
            "device_taken",
            "this device is linked to another account",
        )
        .with_violation("device_id", "linked to another account")),
        Err(e) => Err(store_error(e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn device_ids_are_checked_and_hashed() {
        let id = "3f6c0b8e-9d1a-4c2e-8f7a-1b2c3d4e5f60";
        let hash = device_hash("device_id", id).expect("a UUID");
        assert_eq!(hash.len(), 64);
        assert_ne!(
            hash,
            token_hash(id),
            "not the hash a bearer token would have"
        );

        let short = device_hash("device_id", "abc").expect_err("short");
        let odd = device_hash("device_id", "0123456789abcdef/").expect_err("slash");

        assert_eq!(short.violations()[0].field, "device_id");
        assert_eq!(
            short.violations()[0].description,
            "must be 16 to 128 characters"
        );
        assert!(
            odd.violations()[0]
                .description
                .contains("U+002F at character 16")
        );
    }
}

//! Passwords: the length rules, and argon2id hashes (PHC strings with a
//! random salt from the operating system) computed off the async runtime,
//! since one costs tens of milliseconds of CPU and 19 MiB.
//!
//! A sign-in with an unknown name verifies against a hash of no one's
//! password, so it takes as long as a wrong password and the time of an
//! answer does not tell which names exist.

use std::sync::LazyLock;

use argon2::password_hash::SaltString;
use argon2::{Argon2, PasswordHash, PasswordHasher, PasswordVerifier};
use rand::TryRngCore;
use rand::rngs::OsRng;
use skit_api::ApiError;

/// The fewest characters of a password.
pub const MIN_CHARS: usize = 8;
/// The most characters of a password: hashing is the only cost it bounds,
/// and passphrases fit.
pub const MAX_CHARS: usize = 128;

/// Refuses `password` (the request field `field`) unless it has
/// [`MIN_CHARS`] to [`MAX_CHARS`] characters and no NUL.
pub fn check(field: &str, password: &str) -> Result<(), ApiError> {
    let length = password.chars().count();
    if !(MIN_CHARS..=MAX_CHARS).contains(&length) {
        return Err(ApiError::invalid(
            field,
            format!("must be {MIN_CHARS} to {MAX_CHARS} characters"),
        ));
    }
    skit_api::text::stored(field, password)
}

/// The argon2id PHC string of `password` under a fresh salt.
pub async fn hash(password: String) -> Result<String, ApiError> {
    let mut salt = [0u8; 16];
    OsRng
        .try_fill_bytes(&mut salt)
        .map_err(|e| ApiError::internal("no randomness for a salt", &e))?;
    tokio::task::spawn_blocking(move || hash_with(&password, &salt))
        .await
        .map_err(|e| ApiError::internal("password hashing stopped", &e))?
}

fn hash_with(password: &str, salt: &[u8]) -> Result<String, ApiError> {
    let salt = SaltString::encode_b64(salt).map_err(|e| ApiError::internal("salt", &e))?;
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|hash| hash.to_string())
        .map_err(|e| ApiError::internal("cannot hash a password", &e))
}

/// Whether `password` is the one `stored` was made from. `None` (an
/// unknown name, or an account without a password) is never a match, and
/// takes as long to say as a wrong password.
pub async fn verify(password: String, stored: Option<String>) -> Result<bool, ApiError> {
    tokio::task::spawn_blocking(move || {
        let known = stored.is_some();
        let stored = stored.as_deref().unwrap_or(&NO_ONES);
        let parsed = PasswordHash::new(stored)
            .map_err(|e| ApiError::internal("a stored password hash", &e))?;
        let matches = Argon2::default()
            .verify_password(password.as_bytes(), &parsed)
            .is_ok();
        Ok(known && matches)
    })
    .await
    .map_err(|e| ApiError::internal("password check stopped", &e))?
}

/// A hash of a password nobody has, for unknown names to be checked against.
static NO_ONES: LazyLock<String> =
    LazyLock::new(|| hash_with("no one's password", b"skitgubbe-nobody").unwrap_or_default());

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn length_rules_name_the_field() {
        assert!(check("password", "correct horse").is_ok());

        let short = check("password", "1234567").expect_err("too short");
        let long = check("password", &"x".repeat(MAX_CHARS + 1)).expect_err("too long");

        assert_eq!(short.violations()[0].field, "password");
        assert_eq!(
            short.violations()[0].description,
            "must be 8 to 128 characters"
        );
        assert_eq!(
            long.violations()[0].description,
            "must be 8 to 128 characters"
        );
    }

    #[tokio::test]
    async fn a_hash_verifies_its_password_only() {
        let stored = hash("correct horse".into()).await.expect("hash");

        assert!(stored.starts_with("$argon2id$"), "{stored}");
        assert!(
            verify("correct horse".into(), Some(stored.clone()))
                .await
                .expect("verify")
        );
        assert!(
            !verify("wrong horse".into(), Some(stored.clone()))
                .await
                .expect("verify")
        );
        assert!(
            !verify("no one's password".into(), None)
                .await
                .expect("verify")
        );
        let again = hash("correct horse".into()).await.expect("hash");
        assert_ne!(stored, again, "each hash has its own salt");
    }
}

//! Random secrets: bearer tokens and the other values only their holder
//! may know, from the operating system's randomness.

use rand::TryRngCore;
use rand::rngs::OsRng;
use skit_api::ApiError;

/// A new bearer secret: 32 random bytes, hex.
pub fn new_token() -> Result<String, ApiError> {
    Ok(format!("skt_{}", random_hex::<32>()?))
}

/// `N` random bytes, hex.
pub fn random_hex<const N: usize>() -> Result<String, ApiError> {
    let mut bytes = [0u8; N];
    OsRng
        .try_fill_bytes(&mut bytes)
        .map_err(|e| ApiError::internal("no randomness for a token", &e))?;
    Ok(hex::encode(bytes))
}

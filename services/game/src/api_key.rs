//! One API key as the API shows it (never its secret), and a new key's
//! secret with what is stored of it: what the key RPCs (`api_keys.rs`) and
//! CreateAccount for a bot share.

use skit_api::{ApiError, timestamp};
use skit_proto::v1::ApiKey;
use skit_store::{Credential, CredentialKind, NewCredential, Scope};

use crate::secrets::new_token;

/// The API's form of a key (never its secret).
pub fn api_key_message(key: &Credential) -> ApiKey {
    ApiKey {
        api_key_id: key.id.to_string(),
        label: key.label.clone().unwrap_or_default(),
        scopes: key.scopes.iter().map(|s| s.as_str().to_owned()).collect(),
        created_at: Some(timestamp(key.created_at)),
        expires_at: key.expires_at.map(timestamp),
    }
}

/// A new key's secret and what to store of it.
pub fn new_api_key(label: String, scopes: Vec<Scope>) -> Result<(String, NewCredential), ApiError> {
    let token = new_token()?;
    let credential = NewCredential {
        kind: CredentialKind::ApiKey,
        token_hash: skit_store::token_hash(&token),
        session_id: None,
        scopes,
        label: Some(label),
        expires_at: None,
    };
    Ok((token, credential))
}

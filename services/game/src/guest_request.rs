//! Idempotent CreateGuest. A guest's request has no caller to scope its id
//! by, so the request id is all a resend proves, and whoever knows it gets
//! the account's token: it must be a secret the client keeps, long enough
//! not to be guessed ([`MIN_CHARS`]).
//!
//! The account keeps a key derived from the id (not the id itself) and its
//! token sealed under the request (the id and the name asked for). The same
//! request opens the token again; the same id with another name opens
//! nothing, which is how a reused id is told from a resend; and the
//! database alone, without the request id, opens nothing either. The seal
//! is the token's 32 random bytes XOR a SHA-256 of the request: a one-time
//! pad, as each request key is stored once.

use sha2::{Digest, Sha256};
use skit_api::ApiError;

/// The shortest request id CreateGuest accepts: the id is the resend's
/// only proof, so a guessable one would hand the account to a stranger.
pub const MIN_CHARS: usize = 16;

const KEY_DOMAIN: &[u8] = b"skitgubbe guest request key\0";
const SEAL_DOMAIN: &[u8] = b"skitgubbe guest token seal\0";
/// The refresh token's pad: another domain, so the two seals share no pad.
const REFRESH_SEAL_DOMAIN: &[u8] = b"skitgubbe guest refresh token seal\0";
/// Tokens are this prefix and 32 random bytes in hex ([`crate::secrets::new_token`]).
const TOKEN_PREFIX: &str = "skt_";

/// One CreateGuest request with an id: the id and the name it asked for.
#[derive(Debug, Clone, Copy)]
pub struct GuestRequest<'a> {
    id: &'a str,
    name: Option<&'a str>,
}

impl<'a> GuestRequest<'a> {
    /// Refuses an id shorter than [`MIN_CHARS`], naming `request_id`.
    pub fn new(id: &'a str, name: Option<&'a str>) -> Result<Self, ApiError> {
        if id.chars().count() < MIN_CHARS {
            return Err(ApiError::invalid(
                "request_id",
                format!(
                    "at least {MIN_CHARS} characters: whoever knows it can fetch the account's \
                     token, so use a secret random value such as a UUID"
                ),
            ));
        }
        Ok(Self { id, name })
    }

    /// What the account is found by: the id's hash, not the id.
    pub fn key(&self) -> String {
        hex::encode(hash(KEY_DOMAIN, self.id.as_bytes(), &[]))
    }

    /// `token` (the first access token) sealed under this request.
    pub fn seal(&self, token: &str) -> Result<String, ApiError> {
        self.seal_in(SEAL_DOMAIN, token)
    }

    /// The first refresh token sealed under this request.
    pub fn seal_refresh(&self, token: &str) -> Result<String, ApiError> {
        self.seal_in(REFRESH_SEAL_DOMAIN, token)
    }

    fn seal_in(&self, domain: &[u8], token: &str) -> Result<String, ApiError> {
        let bytes = token
            .strip_prefix(TOKEN_PREFIX)
            .and_then(|hex| <[u8; 32]>::try_from(hex::decode(hex).ok()?).ok())
            .ok_or_else(|| ApiError::invariant("a new token of an unexpected form"))?;
        Ok(hex::encode(self.xor(domain, bytes)))
    }

    /// The token `sealed` holds, if this request sealed it: checked against
    /// the account's `token_hash`. `None`: another request (the same id with
    /// another name).
    pub fn open(&self, sealed: &str, token_hash: &str) -> Option<String> {
        let token = self.open_in(SEAL_DOMAIN, sealed)?;
        (skit_store::token_hash(&token) == token_hash).then_some(token)
    }

    /// The refresh token `sealed` holds, if this request sealed it (check
    /// it against its credential: only [`Self::open`] proves the request).
    pub fn open_refresh(&self, sealed: &str) -> Option<String> {
        self.open_in(REFRESH_SEAL_DOMAIN, sealed)
    }

    fn open_in(&self, domain: &[u8], sealed: &str) -> Option<String> {
        let bytes = <[u8; 32]>::try_from(hex::decode(sealed).ok()?).ok()?;
        Some(format!(
            "{TOKEN_PREFIX}{}",
            hex::encode(self.xor(domain, bytes))
        ))
    }

    fn xor(&self, domain: &[u8], mut bytes: [u8; 32]) -> [u8; 32] {
        // The name is tagged so that no name and an empty one differ.
        let name: Vec<u8> = match self.name {
            None => vec![0],
            Some(name) => [&[1], name.as_bytes()].concat(),
        };
        let pad = hash(domain, self.id.as_bytes(), &name);
        for (byte, p) in bytes.iter_mut().zip(pad) {
            *byte ^= p;
        }
        bytes
    }
}

/// SHA-256 of `domain`, then `id` with its length (so id and rest cannot
/// trade bytes), then `rest`.
fn hash(domain: &[u8], id: &[u8], rest: &[u8]) -> [u8; 32] {
    let mut hasher = Sha256::new();
    hasher.update(domain);
    hasher.update((id.len() as u64).to_le_bytes());
    hasher.update(id);
    hasher.update(rest);
    hasher.finalize().into()
}

#[cfg(test)]
mod tests {
    use super::*;

    const ID: &str = "6f1c2a9e-4b7d-4e0a-9a51-3c8d2f7b1e44";

    fn token() -> String {
        crate::secrets::new_token().expect("randomness")
    }

    #[test]
    fn the_same_request_opens_its_token() {
        let token = token();
        let request = GuestRequest::new(ID, Some("ann")).expect("long enough");
        let sealed = request.seal(&token).expect("a token");

        assert_ne!(sealed, token[TOKEN_PREFIX.len()..], "sealed, not stored");
        let again = GuestRequest::new(ID, Some("ann")).expect("long enough");
        assert_eq!(
            again.open(&sealed, &skit_store::token_hash(&token)),
            Some(token)
        );
    }

    #[test]
    fn another_name_or_id_opens_nothing() {
        let token = token();
        let hash = skit_store::token_hash(&token);
        let sealed = GuestRequest::new(ID, Some("ann"))
            .and_then(|r| r.seal(&token))
            .expect("sealed");

        for (id, name) in [
            (ID, Some("bo")),
            (ID, None),
            (ID, Some("")),
            (&ID[1..], Some("ann")),
        ] {
            let other = GuestRequest::new(id, name).expect("long enough");
            assert_eq!(other.open(&sealed, &hash), None, "{id} {name:?}");
        }
    }

    #[test]
    fn the_key_depends_on_the_id_only() {
        let a = GuestRequest::new(ID, Some("ann")).expect("long enough");
        let b = GuestRequest::new(ID, None).expect("long enough");
        assert_eq!(a.key(), b.key());
        assert!(!a.key().contains(ID));
        let c = GuestRequest::new(&ID[1..], None).expect("long enough");
        assert_ne!(a.key(), c.key());
    }

    #[test]
    fn a_short_id_is_refused_naming_the_field() {
        let error = GuestRequest::new("1", None).expect_err("guessable");
        assert_eq!(error.violations()[0].field, "request_id");
    }
}

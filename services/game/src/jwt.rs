//! Bearer JWTs from an operator's own identity provider: checked against
//! the provider's published keys (`jwks`) by the token's `kid`, with its
//! issuer, audience and expiry; what is left is who the provider says the
//! caller is. A refused JWT is UNAUTHENTICATED with a reason saying why
//! (`jwt_expired`, `jwt_wrong_issuer`, `jwt_wrong_audience`,
//! `jwt_bad_signature`, `jwt_unknown_key`, ...), so an operator can tell a
//! clock or configuration problem from a forgery.

use std::sync::{Arc, PoisonError, RwLock};

use jsonwebtoken::errors::ErrorKind;
use jsonwebtoken::jwk::JwkSet;
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use serde_json::{Map, Value};
use skit_api::{ApiError, ErrorCode};

/// How far a provider's clock may be ahead of or behind ours, in seconds.
const LEEWAY_SECONDS: u64 = 30;

/// Public-key algorithms only: a JWKS names public keys, and a shared
/// secret (HS256) would let whoever verifies also sign.
const ALLOWED: [Algorithm; 9] = [
    Algorithm::RS256,
    Algorithm::RS384,
    Algorithm::RS512,
    Algorithm::PS256,
    Algorithm::PS384,
    Algorithm::PS512,
    Algorithm::ES256,
    Algorithm::ES384,
    Algorithm::EdDSA,
];

/// Who a verified JWT says the caller is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verified {
    pub issuer: String,
    pub subject: String,
    /// The configured name claim's value (`preferred_username`), if it
    /// holds text.
    pub name: Option<String>,
}

/// Checks JWTs against the current key set.
#[derive(Debug, Clone)]
pub struct JwtVerifier {
    keys: Arc<RwLock<JwkSet>>,
    issuer: String,
    audience: String,
    name_claim: String,
}

/// Whether a bearer token is a JWT (three base64url parts, the first a
/// JSON object) rather than one of the service's own tokens.
pub fn looks_like_jwt(token: &str) -> bool {
    token.starts_with("eyJ") && token.split('.').count() == 3
}

fn refused(reason: &'static str, message: impl Into<String>) -> ApiError {
    ApiError::new(ErrorCode::Unauthenticated, reason, message)
}

impl JwtVerifier {
    pub fn new(keys: JwkSet, issuer: String, audience: String, name_claim: String) -> Self {
        Self {
            keys: Arc::new(RwLock::new(keys)),
            issuer,
            audience,
            name_claim,
        }
    }

    /// Takes up a freshly read key set (the provider rotated its keys).
    pub fn replace_keys(&self, keys: JwkSet) {
        *self.keys.write().unwrap_or_else(PoisonError::into_inner) = keys;
    }

    /// Who `token` names, if its signature, issuer, audience and times hold.
    pub fn verify(&self, token: &str) -> Result<Verified, ApiError> {
        let header = jsonwebtoken::decode_header(token)
            .map_err(|_| refused("jwt_malformed", "the bearer JWT cannot be read"))?;
        if !ALLOWED.contains(&header.alg) {
            return Err(refused(
                "jwt_bad_algorithm",
                format!("JWTs signed with {:?} are not accepted", header.alg),
            ));
        }
        let kid = header
            .kid
            .ok_or_else(|| refused("jwt_unknown_key", "the JWT names no key (kid)"))?;
        let key = {
            let keys = self.keys.read().unwrap_or_else(PoisonError::into_inner);
            let jwk = keys.find(&kid).ok_or_else(|| {
                refused(
                    "jwt_unknown_key",
                    format!("no key {kid:?} in the identity provider's key set"),
                )
            })?;
            DecodingKey::from_jwk(jwk).map_err(|_| {
                refused("jwt_unknown_key", format!("the key {kid:?} cannot be used"))
            })?
        };
        let mut validation = Validation::new(header.alg);
        validation.leeway = LEEWAY_SECONDS;
        validation.validate_nbf = true;
        validation.set_issuer(&[&self.issuer]);
        validation.set_audience(&[&self.audience]);
        validation.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
        let data = jsonwebtoken::decode::<Map<String, Value>>(token, &key, &validation)
            .map_err(|e| explain(e.kind()))?;
        let claims = data.claims;
        let text = |name: &str| claims.get(name).and_then(Value::as_str).map(str::to_owned);
        let subject = text("sub")
            .filter(|s| !s.is_empty())
            .ok_or_else(|| refused("jwt_missing_claim", "the JWT's sub is not text"))?;
        Ok(Verified {
            issuer: self.issuer.clone(),
            subject,
            name: text(&self.name_claim),
        })
    }
}

/// A refused JWT as the client sees it.
fn explain(kind: &ErrorKind) -> ApiError {
    match kind {
        ErrorKind::ExpiredSignature => refused("jwt_expired", "the JWT has expired"),
        ErrorKind::ImmatureSignature => refused("jwt_not_yet_valid", "the JWT is not valid yet"),
        ErrorKind::InvalidIssuer => refused(
            "jwt_wrong_issuer",
            "the JWT was issued by another identity provider",
        ),
        ErrorKind::InvalidAudience => refused(
            "jwt_wrong_audience",
            "the JWT was issued for another audience",
        ),
        ErrorKind::InvalidSignature => {
            refused("jwt_bad_signature", "the JWT's signature does not verify")
        }
        ErrorKind::MissingRequiredClaim(claim) => {
            refused("jwt_missing_claim", format!("the JWT has no {claim} claim"))
                .with_metadata("claim", claim)
        }
        ErrorKind::InvalidAlgorithm => refused(
            "jwt_bad_algorithm",
            "the JWT's algorithm does not fit its key",
        ),
        _ => refused("jwt_malformed", "the bearer JWT cannot be read"),
    }
}

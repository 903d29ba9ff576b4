//! Bearer JWTs from an operator's own identity provider: checked against
//! the provider's published keys (`jwks`) by the token's `kid`, with its
//! issuer, audience and expiry; what is left is who the provider says the
//! caller is. A refused JWT is UNAUTHENTICATED with a reason saying why
//! (`jwt_expired`, `jwt_wrong_issuer`, `jwt_wrong_audience`,
//! `jwt_bad_signature`, `jwt_unknown_key`, ...), so an operator can tell a
//! clock or configuration problem from a forgery.

use std::sync::{Arc, PoisonError, RwLock};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
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
        let header = jsonwebtoken::decode_header(token).map_err(|_| unreadable(token))?;
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
        // A key verifies one family of algorithms: an ES256 header naming
        // an RSA key is the wrong algorithm, not an unreadable token.
        if key.family() != header.alg.family() {
            return Err(refused(
                "jwt_bad_algorithm",
                format!(
                    "the JWT's algorithm {:?} does not fit the key {kid:?}",
                    header.alg
                ),
            ));
        }
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

/// Why a header jsonwebtoken cannot read is refused: one naming an
/// algorithm it does not know (`none`, an unsigned token) is a bad
/// algorithm; anything else is malformed.
fn unreadable(token: &str) -> ApiError {
    let alg = token
        .split('.')
        .next()
        .and_then(|part| URL_SAFE_NO_PAD.decode(part).ok())
        .and_then(|json| serde_json::from_slice::<Map<String, Value>>(&json).ok())
        .and_then(|header| header.get("alg")?.as_str().map(str::to_owned))
        .filter(|alg| alg.parse::<Algorithm>().is_err());
    match alg {
        Some(alg) => refused(
            "jwt_bad_algorithm",
            format!("JWTs signed with {alg:?} are not accepted"),
        ),
        None => refused("jwt_malformed", "the bearer JWT cannot be read"),
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

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// A verifier whose provider publishes one RSA key, `rsa`.
    fn verifier() -> JwtVerifier {
        let keys = json!({"keys": [{"kty": "RSA", "kid": "rsa", "use": "sig",
            "n": "sXchDaQebHnPiGvyDOAT4saGEUetSyo9MKLOoWFsueri23bOdgWp4Dy1WlUzewbgBHod5pcM9H95GQRV3JDXbw",
            "e": "AQAB"}]});
        let keys = serde_json::from_value(keys).expect("a JWKS");
        JwtVerifier::new(keys, "https://id.test".into(), "skit".into(), "name".into())
    }

    /// A token with this header, valid claims and a signature of nothing.
    fn token(header: &Value) -> String {
        let part = |v: &Value| URL_SAFE_NO_PAD.encode(v.to_string());
        let claims = json!({"iss": "https://id.test", "aud": "skit", "sub": "u-1",
            "exp": 4_000_000_000_u64});
        format!("{}.{}.c2ln", part(header), part(&claims))
    }

    fn reason(token: &str) -> String {
        let refused = verifier().verify(token).expect_err("refused");
        refused.reason().to_owned()
    }

    #[test]
    fn unsigned_tokens_and_algorithms_unfit_for_the_key_are_bad_algorithms() {
        for header in [
            json!({"alg": "none"}),
            json!({"alg": "none", "kid": "rsa"}),
            json!({"alg": "ES256", "kid": "rsa"}),
            json!({"alg": "EdDSA", "kid": "rsa"}),
            json!({"alg": "HS256", "kid": "rsa"}),
        ] {
            assert_eq!(reason(&token(&header)), "jwt_bad_algorithm", "{header}");
        }
    }

    #[test]
    fn a_header_that_cannot_be_read_is_malformed() {
        for header in [
            json!({"alg": "RS256", "kid": 7}),
            json!({"kid": "rsa"}),
            json!(["RS256"]),
        ] {
            assert_eq!(reason(&token(&header)), "jwt_malformed", "{header}");
        }
        assert_eq!(reason("eyJub3QganNvbg.e30.c2ln"), "jwt_malformed");
    }
}

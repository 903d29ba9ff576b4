//! The caller's credential on the wire, `authorization: Bearer <token>`:
//! written here for every client (gRPC metadata or an HTTP header) and read
//! here for every server, so all of them agree on its form and on why one
//! is refused.

use tonic::metadata::{Ascii, MetadataMap, MetadataValue};
use tonic::service::Interceptor;
use tonic::{Request, Status};

use crate::{ApiError, Secret};

const AUTHORIZATION: &str = "authorization";

/// Why a request carries no usable bearer token, or why a token cannot be
/// sent as one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum BearerError {
    #[error("missing authorization: Bearer <token>")]
    Missing,
    #[error("authorization must be Bearer <token>")]
    Malformed,
    #[error("the token cannot be sent as a header (printable ASCII only)")]
    NotHeaderText,
}

impl From<BearerError> for ApiError {
    fn from(e: BearerError) -> Self {
        ApiError::unauthenticated(e.to_string())
    }
}

/// So a client call that returns a `Status` can send with `authed(..)?`.
impl From<BearerError> for Status {
    fn from(e: BearerError) -> Self {
        ApiError::from(e).into()
    }
}

/// The header's text, if a server can read it back: header values may
/// carry bytes past ASCII, but [`bearer_token`] (like any header read as
/// text) refuses them.
fn header_text(token: &str) -> Result<String, BearerError> {
    if token
        .bytes()
        .all(|b| b == b'\t' || (b' '..=b'~').contains(&b))
    {
        Ok(format!("Bearer {token}"))
    } else {
        Err(BearerError::NotHeaderText)
    }
}

/// The `authorization` metadata value for `token`, marked sensitive so
/// that it is never logged.
pub fn bearer_value(token: &str) -> Result<MetadataValue<Ascii>, BearerError> {
    let mut value: MetadataValue<Ascii> = header_text(token)?
        .parse()
        .map_err(|_| BearerError::NotHeaderText)?;
    value.set_sensitive(true);
    Ok(value)
}

/// The `Authorization` HTTP header value for `token` (REST, SSE,
/// gRPC-Web), marked sensitive.
pub fn bearer_header(token: &str) -> Result<http::HeaderValue, BearerError> {
    let mut value = http::HeaderValue::from_str(&header_text(token)?)
        .map_err(|_| BearerError::NotHeaderText)?;
    value.set_sensitive(true);
    Ok(value)
}

/// `message` as a request sent with `token`.
pub fn authed<T>(message: T, token: &str) -> Result<Request<T>, BearerError> {
    let mut request = Request::new(message);
    request
        .metadata_mut()
        .insert(AUTHORIZATION, bearer_value(token)?);
    Ok(request)
}

/// The token a request was sent with (`Bearer <token>` or `bearer
/// <token>`); spaces around the token do not count, and an empty token is
/// no token.
pub fn bearer_token(metadata: &MetadataMap) -> Result<&str, BearerError> {
    let header = metadata.get(AUTHORIZATION).ok_or(BearerError::Missing)?;
    header
        .to_str()
        .ok()
        .and_then(|h| {
            h.strip_prefix("Bearer ")
                .or_else(|| h.strip_prefix("bearer "))
        })
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .ok_or(BearerError::Malformed)
}

/// Adds `authorization: Bearer <token>` to every request of a client.
#[derive(Clone)]
pub struct Bearer(MetadataValue<Ascii>);

impl std::fmt::Debug for Bearer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Bearer(<secret>)")
    }
}

impl Bearer {
    /// Fails when the token is not printable ASCII (it cannot be a header).
    pub fn new(token: &Secret) -> Result<Bearer, BearerError> {
        bearer_value(token.expose()).map(Bearer)
    }
}

impl Interceptor for Bearer {
    fn call(&mut self, mut request: Request<()>) -> Result<Request<()>, Status> {
        request.metadata_mut().insert(AUTHORIZATION, self.0.clone());
        Ok(request)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sent(value: &str) -> MetadataMap {
        let mut metadata = MetadataMap::new();
        metadata.insert(AUTHORIZATION, value.parse().expect("ascii"));
        metadata
    }

    #[test]
    fn what_a_client_writes_a_server_reads() {
        let request = authed((), "skt_abc").expect("ascii token");

        assert_eq!(bearer_token(request.metadata()), Ok("skt_abc"));
        let value = request.metadata().get("authorization").expect("sent");
        assert!(value.is_sensitive());
        assert_eq!(
            bearer_header("skt_abc").expect("ascii").to_str().ok(),
            value.to_str().ok()
        );
    }

    #[test]
    fn spaces_around_the_token_do_not_count() {
        assert_eq!(bearer_token(&sent("bearer skt_abc")), Ok("skt_abc"));
        assert_eq!(bearer_token(&sent("Bearer  skt_abc ")), Ok("skt_abc"));
    }

    #[test]
    fn a_missing_or_malformed_header_says_which() {
        assert_eq!(bearer_token(&MetadataMap::new()), Err(BearerError::Missing));
        for malformed in ["Basic dXNlcg==", "Bearer", "Bearer   ", "skt_abc"] {
            assert_eq!(
                bearer_token(&sent(malformed)),
                Err(BearerError::Malformed),
                "{malformed:?}"
            );
        }
        let refused = ApiError::from(BearerError::Missing);
        assert_eq!(refused.code(), crate::ErrorCode::Unauthenticated);
        assert_eq!(refused.message(), "missing authorization: Bearer <token>");
    }

    #[test]
    fn a_token_that_is_no_header_text_is_refused_before_sending() {
        assert_eq!(
            bearer_value("skt_\u{e5}").err(),
            Some(BearerError::NotHeaderText)
        );
        assert_eq!(
            bearer_header("skt\nx").err(),
            Some(BearerError::NotHeaderText)
        );
        assert!(authed((), "two\rlines").is_err());
    }
}

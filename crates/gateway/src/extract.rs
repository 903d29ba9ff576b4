//! From an HTTP request to a `tonic::Request`: the JSON body in the
//! protobuf JSON mapping (read by [`crate::body`]), and the headers the
//! service reads as metadata.

use axum::{
    body::Bytes,
    extract::{FromRequest, Request},
    http::{HeaderMap, StatusCode, header},
};
use serde::de::DeserializeOwned;
use skit_api::{ApiError, ErrorCode};
use tonic::metadata::{MetadataKey, MetadataMap, MetadataValue};

use crate::body::{self, Described};
use crate::error::{BODY_TOO_LARGE, RestError, UNSUPPORTED_MEDIA_TYPE};

/// Headers passed on as gRPC metadata: the bearer token, and what ties a
/// request to its trace and logs.
const FORWARDED: &[&str] = &["authorization", "traceparent", "tracestate", "x-request-id"];

/// Wraps a message in a `tonic::Request` carrying the forwarded headers.
pub(crate) fn grpc_request<T>(headers: &HeaderMap, message: T) -> tonic::Request<T> {
    tonic::Request::from_parts(metadata(headers), Default::default(), message)
}

/// The forwarded headers as gRPC metadata.
pub(crate) fn metadata(headers: &HeaderMap) -> MetadataMap {
    let mut metadata = MetadataMap::new();
    for name in FORWARDED {
        let Some(value) = headers.get(*name) else {
            continue;
        };
        // A header that is not valid metadata is dropped; the service then
        // answers as it would without it (UNAUTHENTICATED for a token).
        if let Ok(value) = MetadataValue::try_from(value.as_bytes()) {
            metadata.insert(MetadataKey::from_static(name), value);
        }
    }
    metadata
}

/// A request body in the protobuf JSON mapping, sent as
/// `application/json` (415 otherwise). An empty body is the default
/// message, so `POST /v1/games/{id}/join` needs none, and needs no
/// content type either.
#[derive(Debug)]
pub struct ProtoJson<T>(pub T);

impl<T, S> FromRequest<S> for ProtoJson<T>
where
    T: DeserializeOwned + Default + Described,
    S: Send + Sync,
{
    type Rejection = RestError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let json = is_json(req.headers());
        let bytes = Bytes::from_request(req, state).await.map_err(|rejection| {
            if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
                RestError::content_with_status(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    ApiError::new(
                        ErrorCode::ResourceExhausted,
                        BODY_TOO_LARGE,
                        "request body too large",
                    ),
                )
            } else {
                RestError::invalid_argument(format!("unreadable request body: {rejection}"))
            }
        })?;
        if is_blank(&bytes) {
            return Ok(ProtoJson(T::default()));
        }
        if !json {
            return Err(RestError::content_with_status(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                ApiError::new(
                    ErrorCode::InvalidArgument,
                    UNSUPPORTED_MEDIA_TYPE,
                    "a request body must be JSON, sent with Content-Type: application/json",
                ),
            ));
        }
        body::parse(&bytes).map(ProtoJson)
    }
}

/// Whether the request says its body is `application/json` (parameters
/// such as `charset` aside).
fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|essence| essence.trim().eq_ignore_ascii_case("application/json"))
}

fn is_blank(bytes: &[u8]) -> bool {
    bytes.iter().all(u8::is_ascii_whitespace)
}

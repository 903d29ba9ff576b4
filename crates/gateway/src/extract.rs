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

use crate::body;
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

/// A request body in the protobuf JSON mapping as the message named
/// `name` (its descriptor's full name), sent as `application/json` and
/// uncompressed (415 otherwise). An empty body is the default message, so
/// `POST /v1/games/{id}/join` needs none, and needs no content type either.
pub(crate) async fn json_body<T>(request: Request, name: &str) -> Result<T, RestError>
where
    T: DeserializeOwned + Default,
{
    if let Some(encoding) = content_encoding(request.headers()) {
        return Err(RestError::content_with_status(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ApiError::new(
                ErrorCode::InvalidArgument,
                UNSUPPORTED_MEDIA_TYPE,
                format!(
                    "a request body is read as sent: Content-Encoding {encoding:?} is not \
                     accepted; send the JSON uncompressed"
                ),
            ),
        ));
    }
    let json = is_json(request.headers());
    let bytes = Bytes::from_request(request, &())
        .await
        .map_err(|rejection| {
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
        return Ok(T::default());
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
    body::parse(&bytes, name)
}

/// The request's `Content-Encoding`, unless it is none or `identity`: a
/// body the service would read as plain JSON although the client says it
/// is not.
fn content_encoding(headers: &HeaderMap) -> Option<String> {
    let encoding = headers.get(header::CONTENT_ENCODING)?;
    let text = String::from_utf8_lossy(encoding.as_bytes())
        .trim()
        .to_owned();
    (!text.eq_ignore_ascii_case("identity")).then_some(text)
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

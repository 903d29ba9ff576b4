//! From an HTTP request to a `tonic::Request`: the JSON body in the
//! protobuf JSON mapping, and the headers the service reads as metadata.

use axum::{
    body::Bytes,
    extract::{FromRequest, Request},
    http::{HeaderMap, StatusCode},
};
use serde::de::DeserializeOwned;
use skit_api::{ApiError, ErrorCode};
use tonic::metadata::{MetadataKey, MetadataMap, MetadataValue};

use crate::error::{BODY_TOO_LARGE, RestError};

/// Headers passed on as gRPC metadata: the bearer token, and what ties a
/// request to its trace and logs.
const FORWARDED: &[&str] = &["authorization", "traceparent", "tracestate", "x-request-id"];

/// Wraps a message in a `tonic::Request` carrying the forwarded headers.
pub(crate) fn grpc_request<T>(headers: &HeaderMap, message: T) -> tonic::Request<T> {
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
    tonic::Request::from_parts(metadata, Default::default(), message)
}

/// A request body in the protobuf JSON mapping. An empty body is the
/// default message, so `POST /v1/games/{id}/join` needs none.
#[derive(Debug)]
pub struct ProtoJson<T>(pub T);

impl<T, S> FromRequest<S> for ProtoJson<T>
where
    T: DeserializeOwned + Default,
    S: Send + Sync,
{
    type Rejection = RestError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let bytes = Bytes::from_request(req, state).await.map_err(|rejection| {
            if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
                RestError::with_status(
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
        parse_body(&bytes).map(ProtoJson)
    }
}

/// Parses a body, naming the problem: serde's message carries the field
/// and the line and column.
pub(crate) fn parse_body<T: DeserializeOwned + Default>(bytes: &[u8]) -> Result<T, RestError> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(T::default());
    }
    serde_json::from_slice(bytes).map_err(|e| {
        let message = format!("malformed JSON body: {e}");
        ApiError::new(ErrorCode::InvalidArgument, "malformed_json", message).into()
    })
}

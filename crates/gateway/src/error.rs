//! Errors as REST clients see them: the HTTP status and JSON body of the
//! shared error core (`skit_api::error`), as an axum response. A service's
//! status and the gateway's own refusals (bad JSON, unknown routes,
//! oversized bodies, timeouts) take the same shape:
//! `{"code", "reason", "message", "fieldViolations", "metadata", "details"}`.

use axum::{
    Json,
    http::StatusCode,
    response::{IntoResponse, Response},
};
use skit_api::{ApiError, ErrorBody, ErrorCode};
use tonic::Status;

/// The reason for a path no route serves.
pub(crate) const NO_SUCH_ROUTE: &str = "no_such_route";
/// The reason for a body over the limit.
pub(crate) const BODY_TOO_LARGE: &str = "body_too_large";

/// An error answered over REST.
#[derive(Debug, Clone)]
pub struct RestError {
    status: StatusCode,
    /// Boxed: handlers return `Result<_, RestError>`, and the body is large.
    body: Box<ErrorBody>,
}

impl RestError {
    /// An error whose HTTP status is more precise than its code's mapping
    /// (413 for an oversized body, 405 for a wrong method).
    pub fn with_status(status: StatusCode, error: ApiError) -> Self {
        Self {
            status,
            body: Box::new(ErrorBody::from(error)),
        }
    }

    /// A request the gateway itself refuses before calling the service.
    pub fn invalid_argument(message: impl Into<String>) -> Self {
        ApiError::of(ErrorCode::InvalidArgument, message).into()
    }

    /// As [`RestError::invalid_argument`], naming the request field at
    /// fault.
    pub fn invalid_field(field: &str, description: impl Into<String>) -> Self {
        ApiError::invalid(field, description).into()
    }

    pub fn body(&self) -> &ErrorBody {
        &self.body
    }
}

impl From<Status> for RestError {
    fn from(status: Status) -> Self {
        Self {
            status: ErrorCode::from(status.code()).http_status(),
            body: Box::new(ErrorBody::from_status(&status)),
        }
    }
}

impl From<ApiError> for RestError {
    fn from(error: ApiError) -> Self {
        Status::from(error).into()
    }
}

impl IntoResponse for RestError {
    fn into_response(self) -> Response {
        (self.status, Json(*self.body)).into_response()
    }
}

/// Bodies for the errors tower and axum produce without a JSON one
/// (timeouts, unknown routes, wrong methods, extractor rejections), so
/// every error a client sees has the same shape. Their text, if any, becomes
/// the message.
pub(crate) async fn fill_empty_error(response: Response) -> Response {
    let status = response.status();
    let is_json = response
        .headers()
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return response;
    }
    let (code, reason) = match status {
        StatusCode::NOT_FOUND => (ErrorCode::NotFound, Some(NO_SUCH_ROUTE)),
        StatusCode::METHOD_NOT_ALLOWED => (ErrorCode::Unimplemented, Some("method_not_allowed")),
        StatusCode::PAYLOAD_TOO_LARGE => (ErrorCode::ResourceExhausted, Some(BODY_TOO_LARGE)),
        StatusCode::TOO_MANY_REQUESTS => (ErrorCode::ResourceExhausted, None),
        StatusCode::REQUEST_TIMEOUT | StatusCode::GATEWAY_TIMEOUT => {
            (ErrorCode::DeadlineExceeded, Some("timeout"))
        }
        StatusCode::SERVICE_UNAVAILABLE => (ErrorCode::Unavailable, None),
        s if s.is_client_error() => (ErrorCode::InvalidArgument, None),
        _ => (ErrorCode::Internal, None),
    };
    let reason = reason.unwrap_or(code.default_reason());
    let text = axum::body::to_bytes(response.into_body(), 4096)
        .await
        .map(|bytes| String::from_utf8_lossy(&bytes).trim().to_owned())
        .unwrap_or_default();
    let message = if text.is_empty() {
        status.canonical_reason().unwrap_or("error").to_lowercase()
    } else {
        text
    };
    RestError::with_status(status, ApiError::new(code, reason, message)).into_response()
}

//! Errors as REST clients see them: the HTTP status and JSON body of the
//! shared error core (`skit_api::error`), as an axum response. A service's
//! status and the gateway's own refusals (bad JSON, unknown routes,
//! oversized bodies, timeouts) take the same shape:
//! `{"code", "reason", "message", "fieldViolations", "metadata", "details"}`,
//! with `retryDelay` and a `Retry-After` header on an error worth retrying.

use std::time::Duration;

use axum::{
    Json,
    http::header::RETRY_AFTER,
    http::{HeaderValue, StatusCode},
    response::{IntoResponse, Response},
};
use skit_api::{ApiError, ErrorBody, ErrorCode};
use tonic::Status;
use tonic_types::StatusExt;

/// The reason for a path no route serves.
pub(crate) const NO_SUCH_ROUTE: &str = "no_such_route";
/// The reason for a body over the limit.
pub(crate) const BODY_TOO_LARGE: &str = "body_too_large";
/// The reason for a body that is not `application/json`.
pub(crate) const UNSUPPORTED_MEDIA_TYPE: &str = "unsupported_media_type";

/// An error answered over REST.
#[derive(Debug, Clone)]
pub struct RestError {
    status: StatusCode,
    /// Boxed: handlers return `Result<_, RestError>`, and the body is large.
    body: Box<ErrorBody>,
    /// The retry hint (`google.rpc.RetryInfo`), also sent as `Retry-After`.
    retry_after: Option<Duration>,
    /// Whether the gateway refused the request's content (its body or
    /// query) before the service saw it; see [`ContentRefusal`].
    content: bool,
}

/// Marks a response that refuses a request's content before the service
/// authenticated it, so the route's credentials can be checked first
/// (`crate::rest::credentials_first`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct ContentRefusal;

impl RestError {
    /// An error whose HTTP status is more precise than its code's mapping
    /// (405 for a wrong method, 504 for a timeout).
    pub fn with_status(status: StatusCode, error: ApiError) -> Self {
        Self {
            status,
            retry_after: error.retry_delay(),
            body: Box::new(ErrorBody::from(error)),
            content: false,
        }
    }

    /// The gateway's refusal of a request's content (body or query).
    pub(crate) fn content(error: ApiError) -> Self {
        Self {
            content: true,
            ..Self::from(error)
        }
    }

    /// [`RestError::content`] with a more precise HTTP status (413 for an
    /// oversized body, 415 for one that is not JSON).
    pub(crate) fn content_with_status(status: StatusCode, error: ApiError) -> Self {
        Self {
            content: true,
            ..Self::with_status(status, error)
        }
    }

    /// A request the gateway itself refuses before calling the service.
    pub fn invalid_argument(message: impl Into<String>) -> Self {
        Self::content(ApiError::of(ErrorCode::InvalidArgument, message))
    }

    /// As [`RestError::invalid_argument`], naming the request field at
    /// fault.
    pub fn invalid_field(field: &str, description: impl Into<String>) -> Self {
        Self::content(ApiError::invalid(field, description))
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
            retry_after: status.get_details_retry_info().and_then(|r| r.retry_delay),
            content: false,
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
        let mut response = (self.status, Json(*self.body)).into_response();
        if let Some(delay) = self.retry_after {
            response
                .headers_mut()
                .insert(RETRY_AFTER, HeaderValue::from(retry_after_seconds(delay)));
        }
        if self.content {
            response.extensions_mut().insert(ContentRefusal);
        }
        response
    }
}

/// `Retry-After` counts whole seconds: the hint rounded up, and at least
/// one, so a client never retries sooner than the hint says.
fn retry_after_seconds(delay: Duration) -> u64 {
    let whole = delay.as_secs() + u64::from(delay.subsec_nanos() > 0);
    whole.max(1)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_outage_says_when_to_retry_in_a_header_too() {
        let outage = ApiError::unavailable("down", Duration::from_millis(1500));

        let response = RestError::from(outage).into_response();

        assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(response.headers()[RETRY_AFTER], "2");
    }

    #[test]
    fn only_an_error_worth_retrying_has_a_retry_after() {
        let response = RestError::from(ApiError::stale(1, 4)).into_response();

        assert!(response.headers().get(RETRY_AFTER).is_none());
        assert_eq!(retry_after_seconds(Duration::ZERO), 1);
        assert_eq!(retry_after_seconds(Duration::from_secs(3)), 3);
    }
}

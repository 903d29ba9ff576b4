//! The one mapping from gRPC status codes to HTTP, and the JSON error body
//! every REST route answers with: `{"code", "message", "details"}`.

use axum::{
    Json,
    http::StatusCode,
    response::{IntoResponse, Response},
};
use serde::Serialize;
use serde_json::Value;
use tonic::{Code, Status};

use crate::details::details_json;

/// The HTTP status for a gRPC code. The only place the two meet.
pub fn http_status(code: Code) -> StatusCode {
    match code {
        Code::Ok => StatusCode::OK,
        Code::InvalidArgument => StatusCode::BAD_REQUEST,
        Code::Unauthenticated => StatusCode::UNAUTHORIZED,
        Code::PermissionDenied => StatusCode::FORBIDDEN,
        Code::NotFound => StatusCode::NOT_FOUND,
        Code::AlreadyExists | Code::Aborted | Code::FailedPrecondition => StatusCode::CONFLICT,
        Code::ResourceExhausted => StatusCode::TOO_MANY_REQUESTS,
        Code::DeadlineExceeded => StatusCode::GATEWAY_TIMEOUT,
        Code::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
        _ => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

/// The canonical upper-case name of a code, as gRPC tools print it.
pub fn code_name(code: Code) -> &'static str {
    match code {
        Code::Ok => "OK",
        Code::Cancelled => "CANCELLED",
        Code::Unknown => "UNKNOWN",
        Code::InvalidArgument => "INVALID_ARGUMENT",
        Code::DeadlineExceeded => "DEADLINE_EXCEEDED",
        Code::NotFound => "NOT_FOUND",
        Code::AlreadyExists => "ALREADY_EXISTS",
        Code::PermissionDenied => "PERMISSION_DENIED",
        Code::ResourceExhausted => "RESOURCE_EXHAUSTED",
        Code::FailedPrecondition => "FAILED_PRECONDITION",
        Code::Aborted => "ABORTED",
        Code::OutOfRange => "OUT_OF_RANGE",
        Code::Unimplemented => "UNIMPLEMENTED",
        Code::Internal => "INTERNAL",
        Code::Unavailable => "UNAVAILABLE",
        Code::DataLoss => "DATA_LOSS",
        Code::Unauthenticated => "UNAUTHENTICATED",
    }
}

/// An error as a REST client sees it.
#[derive(Debug, Clone)]
pub struct ApiError {
    status: StatusCode,
    body: ErrorBody,
}

/// The JSON error body.
#[derive(Debug, Clone, Serialize)]
pub struct ErrorBody {
    /// The gRPC code name, e.g. `FAILED_PRECONDITION`.
    pub code: &'static str,
    pub message: String,
    /// The rich error details (`google.rpc.BadRequest`, ...) in the
    /// protobuf JSON form of `Any`: each with an `@type`.
    pub details: Vec<Value>,
}

impl ApiError {
    /// An error with the HTTP status the code maps to.
    pub fn new(code: Code, message: impl Into<String>) -> Self {
        Self::with_status(http_status(code), code, message)
    }

    /// An error whose HTTP status is more precise than the code's mapping
    /// (413 for an oversized body, 405 for a wrong method).
    pub fn with_status(status: StatusCode, code: Code, message: impl Into<String>) -> Self {
        let body = ErrorBody {
            code: code_name(code),
            message: message.into(),
            details: Vec::new(),
        };
        Self { status, body }
    }

    /// A request the gateway itself refuses before calling the service.
    pub fn invalid_argument(message: impl Into<String>) -> Self {
        Self::new(Code::InvalidArgument, message)
    }

    pub fn status(&self) -> StatusCode {
        self.status
    }

    pub fn body(&self) -> &ErrorBody {
        &self.body
    }
}

impl From<Status> for ApiError {
    fn from(status: Status) -> Self {
        let mut error = Self::new(status.code(), status.message());
        error.body.details = details_json(&status);
        error
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(self.body)).into_response()
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
    let code = match status {
        StatusCode::NOT_FOUND => Code::NotFound,
        StatusCode::METHOD_NOT_ALLOWED => Code::Unimplemented,
        StatusCode::PAYLOAD_TOO_LARGE | StatusCode::TOO_MANY_REQUESTS => Code::ResourceExhausted,
        StatusCode::REQUEST_TIMEOUT | StatusCode::GATEWAY_TIMEOUT => Code::DeadlineExceeded,
        StatusCode::SERVICE_UNAVAILABLE => Code::Unavailable,
        s if s.is_client_error() => Code::InvalidArgument,
        _ => Code::Internal,
    };
    let text = axum::body::to_bytes(response.into_body(), 4096)
        .await
        .map(|bytes| String::from_utf8_lossy(&bytes).trim().to_owned())
        .unwrap_or_default();
    let message = if text.is_empty() {
        status.canonical_reason().unwrap_or("error").to_lowercase()
    } else {
        text
    };
    ApiError::with_status(status, code, message).into_response()
}

//! Streaming RPCs as NDJSON (`(skitgubbe.v1.call).ndjson`): each message is
//! one line of JSON, written as REST answers are ([`crate::json`]). A
//! stream that fails ends with one line `{"error": ERROR}`, ERROR being the
//! usual JSON error body; the status, sent before the first line, stays
//! 200.

use axum::{
    body::{Body, Bytes},
    http::{HeaderValue, header},
    response::{IntoResponse, Response},
};
use futures_util::{Stream, StreamExt};
use serde::Serialize;
use skit_api::ErrorBody;
use tonic::Status;

use super::watch::until_error;
use crate::{error::RestError, json};

/// The answer's content type.
const CONTENT_TYPE: &str = "application/x-ndjson";

/// `messages` as an NDJSON answer, ending after the first error.
pub(super) fn response<S, T>(messages: S) -> Response
where
    S: Stream<Item = Result<T, Status>> + Send + 'static,
    T: Serialize + Send + 'static,
{
    let lines = until_error(messages.map(|item| match item {
        Ok(message) => message_line(&message),
        Err(status) => (error_line(status), true),
    }));
    let mut response = Body::from_stream(lines).into_response();
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(CONTENT_TYPE));
    response
}

fn message_line<T: Serialize>(message: &T) -> (Bytes, bool) {
    match json::to_vec(message) {
        Ok(mut bytes) => {
            // Compact JSON has no line breaks of its own.
            bytes.push(b'\n');
            (Bytes::from(bytes), false)
        }
        Err(error) => {
            let status = Status::internal(format!("message not serializable: {error}"));
            (error_line(status), true)
        }
    }
}

/// The last line of a stream that failed.
#[derive(Serialize)]
struct ErrorLine<'a> {
    error: &'a ErrorBody,
}

fn error_line(status: Status) -> Bytes {
    let body = RestError::from(status);
    match json::to_vec(&ErrorLine { error: body.body() }) {
        Ok(mut bytes) => {
            bytes.push(b'\n');
            Bytes::from(bytes)
        }
        Err(_) => Bytes::from_static(
            b"{\"error\":{\"code\":\"INTERNAL\",\"reason\":\"internal\",\"message\":\"error\",\"fieldViolations\":[],\"metadata\":{},\"details\":[]}}\n",
        ),
    }
}

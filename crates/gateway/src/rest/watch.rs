//! Streaming RPCs as Server-Sent Events: each message is one `data:` JSON
//! event, written as REST answers are ([`crate::json`]), with the `id` its
//! route gives it. A stream that fails ends with
//! one `event: error` whose data is the usual JSON error body.

use std::{convert::Infallible, future::ready};

use axum::response::sse::Event;
use futures_util::{Stream, StreamExt};
use serde::Serialize;
use tonic::Status;

use crate::{error::RestError, json};

/// Messages as events, each with the `id` given, ending after the first
/// error.
pub(super) fn events<S, T>(
    messages: S,
    id: impl Fn(&T) -> Option<String>,
) -> impl Stream<Item = Result<Event, Infallible>>
where
    S: Stream<Item = Result<T, Status>>,
    T: Serialize,
{
    messages
        .map(move |item| match item {
            Ok(message) => message_event(&message, id(&message)),
            Err(status) => (error_event(status), true),
        })
        .scan(false, |ended, (event, last)| {
            let next = (!*ended).then(|| {
                *ended = last;
                Ok(event)
            });
            ready(next)
        })
}

fn message_event<T: Serialize>(message: &T, id: Option<String>) -> (Event, bool) {
    let event = match id {
        Some(id) => Event::default().id(id),
        None => Event::default(),
    };
    match json::to_string(message) {
        Ok(text) => (event.data(text), false),
        Err(error) => {
            let status = Status::internal(format!("message not serializable: {error}"));
            (error_event(status), true)
        }
    }
}

fn error_event(status: Status) -> Event {
    let body = RestError::from(status);
    let event = Event::default().event("error");
    match event.clone().json_data(body.body()) {
        Ok(event) => event,
        Err(_) => event.data(
            r#"{"code":"INTERNAL","reason":"internal","message":"error","fieldViolations":[],"metadata":{},"details":[]}"#,
        ),
    }
}

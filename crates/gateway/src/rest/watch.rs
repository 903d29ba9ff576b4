//! Streaming RPCs as Server-Sent Events: each message is one `data:` JSON
//! event, written as REST answers are ([`crate::json`]), with the `id` its
//! route gives it. A stream that fails ends with
//! one `event: error` whose data is the usual JSON error body.

use std::{convert::Infallible, future::ready};

use axum::response::sse::Event;
use futures_util::{Stream, StreamExt};
use serde::Serialize;
use tonic::Status;

use crate::{error::RestError, json, shared::SharedViews};

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
    until_error(messages.map(move |item| match item {
        Ok(message) => message_event(&message, id(&message)),
        Err(status) => (error_event(status), true),
    }))
}

/// Shared views as events (`id`: the version), each view's JSON written
/// once for all its streams, ending after the first error.
pub(super) fn shared_events(views: SharedViews) -> impl Stream<Item = Result<Event, Infallible>> {
    until_error(views.map(|item| match item {
        Ok(view) => match view.json() {
            Ok(bytes) => {
                let event = Event::default().id(view.message().version.to_string());
                // `json` writes UTF-8 only, on one line.
                (event.data(String::from_utf8_lossy(&bytes)), false)
            }
            Err(error) => {
                let status = Status::internal(format!("message not serializable: {error}"));
                (error_event(status), true)
            }
        },
        Err(status) => (error_event(status), true),
    }))
}

/// The events (or lines) up to and including the first marked last.
pub(super) fn until_error<T>(
    events: impl Stream<Item = (T, bool)>,
) -> impl Stream<Item = Result<T, Infallible>> {
    events.scan(false, |ended, (event, last)| {
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

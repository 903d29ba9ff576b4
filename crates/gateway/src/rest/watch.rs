//! Streaming RPCs as Server-Sent Events: each message is one `data:` JSON
//! event. A WatchGame View's `id` is its version, so a reconnecting
//! `EventSource` resumes from `Last-Event-ID`. A stream that fails ends with
//! one `event: error` whose data is the usual JSON error body.

use std::{convert::Infallible, future::ready};

use axum::{
    extract::{Path, RawQuery, State},
    http::HeaderMap,
    response::sse::{Event, KeepAlive, Sse},
};
use futures_util::{Stream, StreamExt};
use serde::Serialize;
use skit_proto::v1::{View, WatchGameRequest, game_service_server::GameService};
use tonic::Status;

use super::game::GameState;
use crate::{error::ApiError, extract::grpc_request};

pub(super) async fn watch_game<G: GameService>(
    State(state): State<GameState<G>>,
    Path(game_id): Path<String>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let mut message: WatchGameRequest = state
        .queries
        .decode("skitgubbe.v1.WatchGameRequest", query.as_deref())?;
    message.game_id = game_id;
    if message.from_version.is_none() {
        message.from_version = last_event_id(&headers);
    }
    let views = state
        .service
        .watch_game(grpc_request(&headers, message))
        .await?
        .into_inner();
    let id = |view: &View| Some(view.version.to_string());
    Ok(Sse::new(events(views, id)).keep_alive(KeepAlive::default()))
}

/// The version a reconnecting EventSource last saw.
fn last_event_id(headers: &HeaderMap) -> Option<u64> {
    headers
        .get("last-event-id")?
        .to_str()
        .ok()?
        .trim()
        .parse()
        .ok()
}

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
    match event.json_data(message) {
        Ok(event) => (event, false),
        Err(error) => {
            let status = Status::internal(format!("message not serializable: {error}"));
            (error_event(status), true)
        }
    }
}

fn error_event(status: Status) -> Event {
    let body = ApiError::from(status);
    let event = Event::default().event("error");
    match event.clone().json_data(body.body()) {
        Ok(event) => event,
        Err(_) => event.data(r#"{"code":"INTERNAL","message":"error","details":[]}"#),
    }
}

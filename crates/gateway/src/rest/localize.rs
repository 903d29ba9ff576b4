//! Error messages in the reader's language: the caller's stored choice
//! (asked of the service only for an error answered to a request with
//! credentials), else the request's `Accept-Language`, else English. Only
//! the body's `message` changes (`ErrorBody::localize`); an English answer
//! is passed through untouched, byte for byte.

use std::sync::Arc;

use axum::{
    body::Body,
    extract::{Request, State},
    http::HeaderValue,
    http::header::{ACCEPT_LANGUAGE, AUTHORIZATION, CONTENT_LANGUAGE, CONTENT_LENGTH},
    middleware::Next,
    response::Response,
};
use skit_api::ErrorBody;
use skit_i18n::Language;

use crate::{authenticate::Authenticate, extract::metadata};

/// The largest error body read back to translate; larger ones pass as
/// they are.
const MAX_ERROR_BODY: usize = 64 * 1024;

/// The middleware: runs the route, then translates an error body's
/// message.
pub(super) async fn localize_errors(
    State(auth): State<Arc<dyn Authenticate>>,
    request: Request,
    next: Next,
) -> Response {
    let accepted = request
        .headers()
        .get(ACCEPT_LANGUAGE)
        .and_then(|v| v.to_str().ok())
        .and_then(Language::negotiate);
    let credentials = request
        .headers()
        .contains_key(AUTHORIZATION)
        .then(|| metadata(request.headers()));
    let response = next.run(request).await;
    let status = response.status();
    if !(status.is_client_error() || status.is_server_error()) {
        return response;
    }
    let stored = match credentials {
        Some(credentials) => auth.language(credentials).await,
        None => None,
    };
    let language = stored.or(accepted).unwrap_or_default();
    if language == Language::En {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, MAX_ERROR_BODY).await else {
        return Response::from_parts(parts, Body::empty());
    };
    let Ok(mut error) = serde_json::from_slice::<ErrorBody>(&bytes) else {
        return Response::from_parts(parts, Body::from(bytes));
    };
    error.localize(language);
    match serde_json::to_vec(&error) {
        Ok(translated) => {
            parts.headers.remove(CONTENT_LENGTH);
            parts
                .headers
                .insert(CONTENT_LANGUAGE, HeaderValue::from_static(language.tag()));
            Response::from_parts(parts, Body::from(translated))
        }
        Err(_) => Response::from_parts(parts, Body::from(bytes)),
    }
}

//! gRPC error messages in the caller's language, as the REST face gives
//! them (`crate::rest`): by the `accept-language` metadata. An error
//! answered at once (a trailers-only response, as every refused unary call
//! is) gets its `grpc-message` translated from the catalogue by its reason;
//! the code, the `google.rpc` details and the `skit-error-code` trailer
//! stay as they are. English passes through untouched.

use axum::{
    extract::Request,
    http::{HeaderValue, header::ACCEPT_LANGUAGE},
    middleware::Next,
    response::Response,
};
use skit_api::ErrorBody;
use skit_i18n::Language;
use tonic::Status;

/// The header that carries a gRPC error's message.
const GRPC_MESSAGE: &str = "grpc-message";

/// The middleware.
pub(crate) async fn localize_grpc(request: Request, next: Next) -> Response {
    let language = request
        .headers()
        .get(ACCEPT_LANGUAGE)
        .and_then(|v| v.to_str().ok())
        .and_then(Language::negotiate)
        .unwrap_or_default();
    let mut response = next.run(request).await;
    if language == Language::En {
        return response;
    }
    let Some(status) = Status::from_header_map(response.headers()) else {
        return response;
    };
    if status.code() == tonic::Code::Ok {
        return response;
    }
    let mut body = ErrorBody::from_status(&status);
    let english = body.message.clone();
    body.localize(language);
    if body.message == english {
        return response;
    }
    let translated = Status::with_details_and_metadata(
        status.code(),
        body.message,
        status.details().to_vec().into(),
        status.metadata().clone(),
    );
    let mut headers = axum::http::HeaderMap::new();
    if translated.add_header(&mut headers).is_ok()
        && let Some(message) = headers.get(GRPC_MESSAGE)
    {
        let message: HeaderValue = message.clone();
        response.headers_mut().insert(GRPC_MESSAGE, message);
    }
    response
}

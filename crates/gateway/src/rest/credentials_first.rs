//! Credentials before content: when the gateway refuses a request's body
//! or query ([`ContentRefusal`]) on a route that needs a bearer token, it
//! first asks whether the credentials are good, and answers 401 if they
//! are not. A request whose content is fine reaches the service, which
//! authenticates before it reads anything else.

use std::sync::Arc;

use axum::{
    extract::{MatchedPath, Request, State},
    middleware::Next,
    response::{IntoResponse, Response},
};
use tonic::Code;

use crate::{
    authenticate::Authenticate,
    error::{ContentRefusal, RestError},
    extract::metadata,
    routes::Routes,
};

/// What the check needs: the server's route table and who authenticates.
#[derive(Clone)]
pub(super) struct Gate {
    pub routes: Routes,
    pub auth: Arc<dyn Authenticate>,
}

impl Gate {
    /// Whether the route `path` (its template) answers `method` for a
    /// bearer token only.
    fn needs_token(&self, method: &str, path: &str) -> bool {
        self.routes
            .iter()
            .any(|r| r.path == path && r.method == method && r.authenticated)
    }
}

/// The middleware: runs the route, then turns a content refusal into 401
/// if the credentials are bad.
pub(super) async fn credentials_first(
    State(gate): State<Gate>,
    request: Request,
    next: Next,
) -> Response {
    let needs_token = request
        .extensions()
        .get::<MatchedPath>()
        .is_some_and(|path| gate.needs_token(request.method().as_str(), path.as_str()));
    if !needs_token {
        return next.run(request).await;
    }
    let credentials = metadata(request.headers());
    let response = next.run(request).await;
    if response.extensions().get::<ContentRefusal>().is_none() {
        return response;
    }
    match gate.auth.authenticate(credentials).await {
        Err(status) if status.code() == Code::Unauthenticated => {
            RestError::from(status).into_response()
        }
        // Good credentials, or no answer about them (the service that
        // knows is down): the content refusal stands.
        _ => response,
    }
}

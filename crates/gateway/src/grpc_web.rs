//! gRPC, gRPC-Web and REST on one port. Requests are told apart by content
//! type (`application/grpc*` goes to tonic), so each side keeps its own
//! answer for an unknown path: gRPC's UNIMPLEMENTED, REST's JSON 404.

use std::sync::Arc;

use crate::{
    browser::{self, CorsOrigins},
    limits::Limits,
    metrics,
};
use axum::{Router, extract::Request, http::header};
use skit_proto::v1::{
    account_service_server::{AccountService, AccountServiceServer},
    admin_service_server::{AdminService, AdminServiceServer},
    game_service_server::{GameService, GameServiceServer},
    rating_service_server::{RatingService, RatingServiceServer},
};
use tonic::service::Routes;
use tonic_web::GrpcWebLayer;
use tower::{ServiceExt, service_fn};

/// The services as tonic routes, ready for [`combined`] (or for more
/// services, such as health and reflection, via `Routes::add_service`).
pub fn grpc_routes<G: GameService, A: AccountService, R: RatingService, D: AdminService>(
    game: Arc<G>,
    accounts: Arc<A>,
    ratings: Arc<R>,
    admin: Arc<D>,
) -> Routes {
    Routes::new(GameServiceServer::from_arc(game))
        .add_service(AccountServiceServer::from_arc(accounts))
        .add_service(RatingServiceServer::from_arc(ratings))
        .add_service(AdminServiceServer::from_arc(admin))
}

/// The tonic routes answering gRPC-Web (binary and text) as well as gRPC.
pub fn grpc_web(grpc: Routes) -> Router {
    grpc.into_axum_router()
        .layer(axum::middleware::from_fn(
            crate::grpc_language::localize_grpc,
        ))
        .layer(GrpcWebLayer::new())
}

/// One router for one port: gRPC (HTTP/2) and gRPC-Web to `grpc`, every
/// other request to `rest` (e.g. [`crate::router`]); both answer browsers
/// from `origins` only, with the security headers ([`crate::browser`]).
pub fn combined(grpc: Routes, rest: Router, origins: &CorsOrigins) -> Router {
    browser::guard(dispatch(grpc, rest), origins)
}

/// [`combined`] with every call checked against `limits` first (refusals
/// still answer browsers from `origins`, with the security headers).
pub fn combined_with_limits(
    grpc: Routes,
    rest: Router,
    origins: &CorsOrigins,
    limits: &Arc<Limits>,
) -> Router {
    browser::guard(limits.apply(dispatch(grpc, rest)), origins)
}

/// gRPC and gRPC-Web to `grpc`, the rest to `rest`.
fn dispatch(grpc: Routes, rest: Router) -> Router {
    let grpc = grpc_web(grpc).layer(metrics::layer());
    let dispatch = service_fn(move |request: Request| {
        let target = if is_grpc(&request) {
            grpc.clone()
        } else {
            rest.clone()
        };
        target.oneshot(request)
    });
    Router::new().fallback_service(dispatch)
}

fn is_grpc(request: &Request) -> bool {
    request
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/grpc"))
}

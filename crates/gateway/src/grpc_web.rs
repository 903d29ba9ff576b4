//! gRPC, gRPC-Web and REST on one port. Requests are told apart by content
//! type (`application/grpc*` goes to tonic), so each side keeps its own
//! answer for an unknown path: gRPC's UNIMPLEMENTED, REST's JSON 404.

use std::{future::Future, io, sync::Arc};

use crate::{
    browser::{self, CorsOrigins},
    metrics,
};
use axum::{Router, extract::Request, http::header};
use skit_proto::v1::{
    account_service_server::{AccountService, AccountServiceServer},
    admin_service_server::{AdminService, AdminServiceServer},
    game_service_server::{GameService, GameServiceServer},
    rating_service_server::{RatingService, RatingServiceServer},
};
use tokio::net::TcpListener;
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
    grpc.into_axum_router().layer(GrpcWebLayer::new())
}

/// One router for one port: gRPC (HTTP/2) and gRPC-Web to `grpc`, every
/// other request to `rest` (e.g. [`crate::router`]); both answer browsers
/// from `origins` only, with the security headers ([`crate::browser`]).
pub fn combined(grpc: Routes, rest: Router, origins: &CorsOrigins) -> Router {
    let grpc = grpc_web(grpc).layer(metrics::layer());
    let dispatch = service_fn(move |request: Request| {
        let target = if is_grpc(&request) {
            grpc.clone()
        } else {
            rest.clone()
        };
        target.oneshot(request)
    });
    browser::guard(Router::new().fallback_service(dispatch), origins)
}

fn is_grpc(request: &Request) -> bool {
    request
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/grpc"))
}

/// Serves `app` on an already bound listener (HTTP/1.1 and h2c) until
/// `shutdown` completes; tests bind port 0. Each connection as in `conn.rs`.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> io::Result<()> {
    axum::serve(crate::conn::Connections(listener), app)
        .with_graceful_shutdown(shutdown)
        .await
}

//! The HTTP face of the `skitgubbe.v1` API, generic over the generated
//! service traits so it mounts beside any implementation of them:
//!
//! - [`router`]: REST/JSON for every RPC (WatchGame as Server-Sent Events,
//!   ExportGames as NDJSON),
//!   bodies in the protobuf JSON mapping (`application/json`; a refused
//!   body names its field), gRPC statuses mapped once to HTTP
//!   ([`skit_api::ErrorCode::http_status`]), plus `/openapi.json` and `/metrics`;
//!   [`matchmaking_router`] and [`league_router`] the same for the
//!   matchmaker's and the tournament service's own ports;
//!   credentials are checked ([`Authenticate`]) before a request's
//!   content is refused;
//! - `/openapi.json`: the OpenAPI 3 document, derived from the descriptors
//!   and their `google.api.http` annotations, as the routes are
//!   ([`routes::ROUTES`], [`routes::MATCHMAKING_ROUTES`],
//!   [`routes::LEAGUE_ROUTES`]);
//! - [`grpc_routes`], gRPC-Web, and [`combined`] to serve gRPC, gRPC-Web
//!   and REST on one port; [`browser`]: CORS for the configured origins
//!   ([`CorsOrigins`]) and the security headers on every answer;
//! - `/metrics`: the Prometheus recorder and a request layer; services
//!   record their own figures through the `metrics` facade;
//!   [`telemetry`]: logs and OTLP traces; [`environment`]: the variables a
//!   binary's `--help` lists;
//! - [`limits`]: rate limits per class of call and client, caps on open
//!   streams ([`combined_with_limits`]); [`serve_with`]: the connection
//!   protections (timeouts, caps on connections);
//! - [`health`]: the gRPC health service, following the database;
//!   [`reflection`]: gRPC reflection, v1 and v1alpha, listing one port's
//!   services.
//!
//! ```no_run
//! # async fn run<G, A, R, D>(game: std::sync::Arc<G>, accounts: std::sync::Arc<A>, ratings: std::sync::Arc<R>, admin: std::sync::Arc<D>) -> std::io::Result<()>
//! # where G: skit_proto::v1::game_service_server::GameService,
//! #       A: skit_proto::v1::account_service_server::AccountService,
//! #       R: skit_proto::v1::rating_service_server::RatingService,
//! #       D: skit_proto::v1::admin_service_server::AdminService {
//! let rest = skit_gateway::router(game.clone(), accounts.clone(), ratings.clone(), admin.clone());
//! let grpc = skit_gateway::grpc_routes(game, accounts, ratings, admin);
//! let listener = tokio::net::TcpListener::bind("0.0.0.0:8080").await?;
//! skit_gateway::serve(listener, skit_gateway::combined(grpc, rest, &skit_gateway::CorsOrigins::none()), std::future::pending()).await
//! # }
//! ```

mod authenticate;
mod body;
pub mod browser;
#[cfg(feature = "testing")]
pub mod cli_probe;
mod conn;
mod descriptors;
pub mod environment;
mod error;
mod extract;
pub mod game_client;
mod grpc_language;
mod grpc_web;
pub mod health;
#[cfg(feature = "testing")]
pub mod health_probe;
mod held_body;
mod json;
mod json_path;
pub mod limits;
mod metrics;
mod openapi;
pub mod operator_token;
mod query;
pub mod reflection;
#[cfg(feature = "testing")]
pub mod reflection_probe;
mod rest;
pub mod routes;
mod server;
pub mod shared;
mod shared_route;
pub mod telemetry;
#[cfg(feature = "testing")]
pub mod testing;

pub use authenticate::{Authenticate, WhoAmI};
pub use browser::{BadOrigin, CorsOrigins};
pub use error::RestError;
pub use grpc_web::{combined, combined_with_limits, grpc_routes};
pub use limits::{BadLimit, Connections, Limits, LimitsConfig, TrustedProxies};
/// The Prometheus recorder and `GET /metrics`, for a process that serves
/// no API router (the bot worker's health port).
pub use metrics::{install as install_metrics, routes as metrics_routes};
pub use rest::{RestConfig, league_router, matchmaking_router, router, router_with};
pub use server::{serve, serve_with, stop_signal};
pub use shared::{Shared, SharedViews, SharedWatch};
pub use shared_route::with_shared_watch;

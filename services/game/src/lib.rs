//! The game service: hosts Skitgubbe games over gRPC on the event store.
//!
//! [`run`] serves on an already-bound listener, so tests bind port 0; the
//! binary (`main.rs`) only reads the config, starts telemetry and calls it.
//! [`grpc_services`] builds the two API services alone, so a gateway can
//! mount them beside its own routes.

mod account_service;
mod auth;
pub mod config;
mod convert;
mod error;
mod game_service;
mod games;
mod live;
pub mod shuffle;
mod state;

use std::future::Future;
use std::sync::PoisonError;

use anyhow::Context;
use skit_proto::v1::account_service_server::AccountServiceServer;
use skit_proto::v1::game_service_server::GameServiceServer;
use skit_store::Store;
use tokio::net::TcpListener;
use tokio_stream::wrappers::TcpListenerStream;

pub use account_service::AccountApi;
pub use config::{Config, Secret};
pub use error::ApiError;
pub use game_service::GameApi;
pub use state::AppState;

/// The GameService and AccountService servers, with the request size limit.
pub fn grpc_services(
    state: AppState,
) -> (GameServiceServer<GameApi>, AccountServiceServer<AccountApi>) {
    let limit = state.max_request_bytes;
    (
        GameServiceServer::new(GameApi::new(state.clone())).max_decoding_message_size(limit),
        AccountServiceServer::new(AccountApi::new(state)).max_decoding_message_size(limit),
    )
}

/// Connects to the database and prepares the shared state: the operator
/// account and the task that follows other instances' appends.
pub async fn prepare(config: &Config) -> anyhow::Result<AppState> {
    let store = Store::connect(&config.database_url)
        .await
        .context("cannot open the database")?;
    if let Some(token) = &config.operator_token {
        auth::ensure_operator(&store, token)
            .await
            .context("cannot create the operator account")?;
    }
    let state = AppState::new(store.clone(), config);
    let follower = tokio::spawn(games::follow_notices(store, state.games.clone()));
    *state
        .follower
        .lock()
        .unwrap_or_else(PoisonError::into_inner) = Some(follower.abort_handle());
    Ok(state)
}

/// Serves gRPC (the API, health and reflection) on `listener` until
/// `shutdown` resolves.
pub async fn run(
    listener: TcpListener,
    config: Config,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    let state = prepare(&config).await?;
    let store = state.store.clone();
    let (game, account) = grpc_services(state.clone());
    let (health_reporter, health) = tonic_health::server::health_reporter();
    health_reporter
        .set_serving::<GameServiceServer<GameApi>>()
        .await;
    health_reporter
        .set_serving::<AccountServiceServer<AccountApi>>()
        .await;
    let reflection = tonic_reflection::server::Builder::configure()
        .register_encoded_file_descriptor_set(skit_proto::FILE_DESCRIPTOR_SET)
        .build_v1()
        .context("cannot build the reflection service")?;
    tracing::info!(addr = ?listener.local_addr().ok(), "serving");
    let served = tonic::transport::Server::builder()
        .timeout(config.request_timeout())
        .trace_fn(|request| tracing::info_span!("grpc", path = %request.uri().path()))
        .add_service(health)
        .add_service(reflection)
        .add_service(game)
        .add_service(account)
        .serve_with_incoming_shutdown(TcpListenerStream::new(listener), shutdown)
        .await;
    state.stop_following();
    drop(state);
    // Releases the SQLite file for a restart in the same process. Not for
    // Postgres: its pool's close waits for the store's notice listener,
    // which lets go only when the last clone of the store is dropped.
    if matches!(store, Store::Sqlite(_)) {
        store.close().await;
    }
    served.context("the server failed")
}

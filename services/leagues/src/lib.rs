//! The league service: operators create tournaments for tables of 2 to 6
//! seats (Swiss or round robin), players enter them, and the director
//! ([`director`]) seats each round, creates its games through the game
//! service's public gRPC API as the operator, reads their results and
//! keeps the standings, placement points that compare across table sizes
//! with the operator's tiebreak chain.
//!
//! Everything is stored ([`skit_store::Store`]): pairing is a pure
//! function of the stored entries, tables, pins and the seed
//! ([`pairing`]), every change is applied all or nothing with the events
//! that report it ([`lifecycle`]), and a restarted league service goes on
//! where it stopped.
//!
//! [`run`] serves on an already-bound listener, so tests bind port 0; the
//! binary (`main.rs`) only reads the config, starts telemetry and calls it.

pub mod config;
mod convert;
mod director;
mod duplicate;
mod error;
mod events;
pub mod export;
pub mod lifecycle;
mod no_shows;
pub mod pairing;
mod scores;
mod service;
pub mod spec;
mod stages;
pub mod validation;

use std::future::Future;
use std::sync::Arc;

use anyhow::Context;
use skit_gateway::game_client::GameClient;
use skit_gateway::operator_token::OperatorToken;
use skit_proto::v1::league_service_server::LeagueServiceServer;
use skit_store::Store;
use tokio::net::TcpListener;
use tonic::service::Routes;

pub use config::Config;
pub use service::LeagueApi;

use director::Director;

/// What the health service answers for: the server and LeagueService,
/// SERVING while the tournaments' database answers.
const HEALTH_NAMES: [&str; 2] = ["", skit_proto::v1::league_service_server::SERVICE_NAME];

/// Serves LeagueService (gRPC and gRPC-Web, with health and reflection,
/// and REST/JSON with `/openapi.json`, `/metrics`, `/readyz` and
/// `/livez`) on `listener` and runs the director, until `shutdown`
/// resolves.
pub async fn run(
    listener: TcpListener,
    config: Config,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    let origins = config.cors_origins()?;
    let operator = config
        .operator_token
        .clone()
        .context("SKIT_OPERATOR_TOKEN must be set: games are created as the operator")?;
    operator.check_operator_token()?;
    let limits = skit_gateway::Limits::new(&config.limits, &[operator.expose()])
        .context("bad limits in the configuration")?;
    let store = Store::connect_with(&config.database_url, config.pool())
        .await
        .context("cannot open the database")?;
    let operator = match &config.operator_token_file {
        Some(file) => OperatorToken::followed(file.clone(), operator),
        None => OperatorToken::fixed(operator),
    };
    let game =
        GameClient::with_operator(&config.game_url, operator).context("bad SKIT_GAME_URL")?;
    let director = Director::new(store.clone(), game.clone(), config.tick());
    let api = Arc::new(LeagueApi {
        store: store.clone(),
        game,
        wake: director.waker(),
        watch_poll: config.watch_poll(),
    });
    let directing = tokio::spawn(director.run());

    let (health, health_http, following) =
        skit_gateway::health::service(&HEALTH_NAMES, config.health_check(), store.pinger()).await;
    let following = tokio::spawn(following);
    let (reflection, reflection_v1alpha) = skit_gateway::reflection::services(&HEALTH_NAMES[1..])
        .context("cannot build the reflection service")?;
    let grpc = Routes::new(LeagueServiceServer::from_arc(api.clone()))
        .add_service(health)
        .add_service(reflection)
        .add_service(reflection_v1alpha);
    let rest = skit_gateway::league_router(
        api.clone(),
        api.clone(),
        &skit_gateway::RestConfig::default(),
    )
    .merge(export::routes(api))
    .merge(health_http);
    let app = skit_gateway::combined_with_limits(grpc, rest, &origins, &limits);
    tracing::info!(addr = ?listener.local_addr().ok(), game_url = %config.game_url, "serving leagues: gRPC, gRPC-Web and REST");
    let served = skit_gateway::serve_with(listener, app, limits.connections(), shutdown).await;
    directing.abort();
    following.abort();
    let _ = directing.await;
    let _ = following.await;
    store.shutdown().await;
    served.context("the server failed")
}

//! The matchmaking service: players queue tickets, the matching loop forms
//! tables from compatible tickets (see [`forming`]) and creates each game
//! through the game service's public gRPC API as its operator.
//!
//! Tickets and planned matches are stored ([`skit_store::Store`]), so a
//! restarted matchmaker loses no ticket and finishes what it had started,
//! and several matchmakers can share one Postgres database: a ticket is
//! claimed atomically, and a game is created with the match's id as its
//! request id, so it is created once however often it is retried.
//!
//! [`run`] serves on an already-bound listener, so tests bind port 0; the
//! binary (`main.rs`) only reads the config, starts telemetry and calls it.

mod changes;
pub mod config;
mod convert;
mod error;
pub mod forming;
mod matcher;
mod metrics;
mod service;

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use skit_proto::v1::matchmaking_service_server::MatchmakingServiceServer;
use skit_store::Store;
use tokio::net::TcpListener;
use tonic::service::Routes;

pub use config::Config;
pub use service::MatchmakingApi;

use changes::Changes;
use matcher::Matcher;
use skit_gateway::game_client::GameClient;
use skit_gateway::operator_token::OperatorToken;

/// What the health service answers for: the server and MatchmakingService,
/// SERVING while the tickets' database answers.
const HEALTH_NAMES: [&str; 2] = ["", skit_proto::v1::matchmaking_service_server::SERVICE_NAME];

/// Serves MatchmakingService (gRPC and gRPC-Web, with health and
/// reflection, and REST/JSON with `/openapi.json`, `/metrics`, `/readyz`
/// and `/livez`) on `listener` and runs the matching loop, until
/// `shutdown` resolves.
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
    let changes = Changes::default();
    let matcher = Matcher::new(store.clone(), game.clone(), config.clone(), changes.clone());
    let api = Arc::new(MatchmakingApi {
        store: store.clone(),
        game,
        changes,
        wake: matcher.waker(),
        long_poll_cap: config.long_poll_cap(),
        recheck: config.recheck(),
        tickets_per_hour: (config.quota_tickets_per_hour > 0)
            .then_some(config.quota_tickets_per_hour),
    });
    let matching = tokio::spawn(matcher.run());

    let (health, health_http, following) =
        skit_gateway::health::service(&HEALTH_NAMES, config.health_check(), store.pinger()).await;
    let following = tokio::spawn(following);
    // The API services: the health names but the server's "".
    let (reflection, reflection_v1alpha) = skit_gateway::reflection::services(&HEALTH_NAMES[1..])
        .context("cannot build the reflection service")?;
    let grpc = Routes::new(MatchmakingServiceServer::from_arc(api.clone()))
        .add_service(health)
        .add_service(reflection)
        .add_service(reflection_v1alpha);
    let defaults = skit_gateway::RestConfig::default();
    let rest_config = skit_gateway::RestConfig {
        // Above the long poll's cap, so a GetTicket long poll answers with
        // its ticket rather than a timeout.
        timeout: defaults
            .timeout
            .max(config.long_poll_cap() + Duration::from_secs(5)),
        ..defaults
    };
    let rest = skit_gateway::matchmaking_router(api.clone(), api, &rest_config).merge(health_http);
    // The router installed the metrics recorder.
    metrics::describe();
    let app = skit_gateway::combined_with_limits(grpc, rest, &origins, &limits);
    tracing::info!(addr = ?listener.local_addr().ok(), game_url = %config.game_url, "serving matchmaking: gRPC, gRPC-Web and REST");
    let served = skit_gateway::serve_with(listener, app, limits.connections(), shutdown).await;
    matching.abort();
    following.abort();
    // Both hold a clone of the store; wait until they are dropped.
    let _ = matching.await;
    let _ = following.await;
    // Lets a restart in the same process open the database again.
    store.shutdown().await;
    served.context("the server failed")
}

//! The game service: hosts Skitgubbe games over gRPC on the event store.
//!
//! [`run`] serves on an already-bound listener, so tests bind port 0; the
//! binary (`main.rs`) only reads the config, starts telemetry and calls it.
//! [`run`] mounts the API with `skit-gateway` (REST/JSON, SSE, OpenAPI,
//! gRPC-Web, metrics) on one port.

mod account_messages;
mod account_service;
mod admin_credentials;
mod admin_password;
mod admin_service;
mod api_key;
mod api_keys;
mod audit;
mod auth;
mod cached;
mod clock;
mod config;
mod convert;
mod count_or_off;
mod devices;
mod division_api;
mod division_turns;
mod divisions;
mod error;
mod export;
mod feed;
mod game_service;
mod games;
mod guest_request;
mod jwks;
mod jwt;
mod jwt_accounts;
mod known;
mod language_api;
mod live;
mod metrics;
mod names;
mod operator;
mod passwords;
mod people;
mod places;
mod rated;
mod rating_jobs;
mod rating_model;
mod rating_service;
mod rekey;
mod season_api;
mod seasons;
mod secrets;
mod session_api;
mod sessions;
mod shuffle;
mod sign_in_api;
mod state;
mod timeouts;
mod watcher;

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use skit_store::Store;
use tokio::net::TcpListener;

use account_service::AccountApi;
use admin_service::AdminApi;
use game_service::GameApi;
use rating_service::RatingApi;
use state::AppState;

pub use config::Config;
pub use rekey::rekey_names;

/// Connects to the database and prepares the shared state: the operator
/// account, the task that reads the revocation feed, the task that follows
/// other instances' appends, the task that applies run-out clocks, the one
/// that evicts idle games, the one that retries refused rating updates
/// and, with an identity provider, the one that reads its keys again.
async fn prepare(config: &Config) -> anyhow::Result<AppState> {
    config.check()?;
    let store = Store::connect_with(&config.database_url, config.pool())
        .await
        .context("cannot open the database")?;
    rekey_names(&store)
        .await
        .context("cannot recompute registered names' keys")?;
    if let Some(token) = &config.operator_token {
        operator::ensure_operator(&store, token, config.operator_token_grace())
            .await
            .context("cannot set up the operator credential")?;
    }
    let jwt = jwks::configured(config)
        .await
        .context("cannot set up the identity provider's JWTs")?;
    let state = AppState::new(
        store.clone(),
        config,
        jwt.as_ref().map(|(verifier, _)| verifier.clone()),
    );
    if let Some((verifier, source)) = jwt {
        state.spawn_background(jwks::refresh(source, verifier, config.jwks_refresh()));
    }
    state.spawn_background(
        state
            .auth
            .clone()
            .follow_revocations(config.revocation_poll()),
    );
    state.spawn_background(games::follow_notices(store, state.games.clone()));
    state.spawn_background(timeouts::enforce(
        GameApi::new(state.clone()),
        config.clock_recheck(),
    ));
    state.spawn_background(games::evict_idle_games(
        state.games.clone(),
        config.cache_idle(),
    ));
    // Games a crash left unmarked or unrated; in the background, so
    // start-up is quick.
    state.spawn_background(rating_jobs::recover(state.clone()));
    state.spawn_background(rating_jobs::retry_failed(
        state.clone(),
        config.ratings_retry(),
    ));
    // Seasons' divisions turn when a period begins.
    state.spawn_background(division_turns::keep_turning(
        state.store.clone(),
        DIVISION_TURNS,
    ));
    Ok(state)
}

/// How often running seasons' divisions are checked for a new period.
const DIVISION_TURNS: std::time::Duration = std::time::Duration::from_secs(60);

/// What the health service answers for: the server and its four
/// services, SERVING while the database answers.
const HEALTH_NAMES: [&str; 5] = [
    "",
    skit_proto::v1::game_service_server::SERVICE_NAME,
    skit_proto::v1::account_service_server::SERVICE_NAME,
    skit_proto::v1::rating_service_server::SERVICE_NAME,
    skit_proto::v1::admin_service_server::SERVICE_NAME,
];

/// Serves the API on `listener` until `shutdown` resolves: gRPC (with
/// health and reflection), gRPC-Web and REST/JSON (with `/openapi.json`,
/// `/metrics`, `/readyz` and `/livez`) on one port, told apart by content
/// type, and the web client at `/` (`skit-web`). Shutting down takes at
/// most the shutdown grace (`SKIT_SHUTDOWN_GRACE_MS`) beyond the calls'
/// own end.
pub async fn run(
    listener: TcpListener,
    config: Config,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    let origins = config.cors_origins()?;
    let web = config.web()?;
    let operator: Vec<&str> = config.operator_token.iter().map(|t| t.expose()).collect();
    let limits = skit_gateway::Limits::new(&config.limits, &operator)
        .context("bad limits in the configuration")?;
    let state = prepare(&config).await?;
    let store = state.store.clone();
    // When shutdown begins, long polls answer and WatchGame streams end at
    // once (their clients reconnect elsewhere), while the serve loop stops
    // accepting and lets calls in flight, commits among them, finish.
    let draining = state.draining.clone();
    let shutdown = async move {
        shutdown.await;
        tracing::info!("shutting down: ending streams and long polls, finishing calls in flight");
        draining.cancel();
    };
    let game = Arc::new(GameApi::new(state.clone()));
    let accounts = Arc::new(AccountApi::new(state.clone()));
    let ratings = Arc::new(RatingApi::new(state.clone()));
    let admin = Arc::new(AdminApi::new(state.clone()));
    let (health, health_http, following) =
        skit_gateway::health::service(&HEALTH_NAMES, config.health_check(), store.pinger()).await;
    state.spawn_background(following);
    // The API services: the health names but the server's "".
    let (reflection, reflection_v1alpha) = skit_gateway::reflection::services(&HEALTH_NAMES[1..])
        .context("cannot build the reflection service")?;
    let shared: Arc<dyn skit_gateway::SharedWatch> = game.clone();
    let grpc = skit_gateway::grpc_routes(
        game.clone(),
        accounts.clone(),
        ratings.clone(),
        admin.clone(),
    );
    let grpc = skit_gateway::with_shared_watch(grpc, shared.clone())
        .add_service(health)
        .add_service(reflection)
        .add_service(reflection_v1alpha);
    let rest_config = skit_gateway::RestConfig {
        body_limit: config.max_request_bytes,
        timeout: config
            .request_timeout()
            .max(config.long_poll_cap() + Duration::from_secs(5)),
        metrics: true,
    };
    let rest = skit_gateway::router_with(game, accounts, ratings, admin, &rest_config)
        .layer(axum::Extension(shared))
        .merge(health_http)
        .merge(skit_web::router(&web));
    // The router installed the metrics recorder.
    skit_store::metrics::describe();
    metrics::describe();
    let app = skit_gateway::combined_with_limits(grpc, rest, &origins, &limits).layer(
        tower_http::trace::TraceLayer::new_for_http()
            .make_span_with(|request: &axum::extract::Request| {
                tracing::info_span!("request", method = %request.method(), path = %request.uri().path())
            }),
    );
    tracing::info!(addr = ?listener.local_addr().ok(), "serving gRPC, gRPC-Web and REST");
    let served = skit_gateway::serve_with(listener, app, limits.connections(), shutdown).await;
    state.stop_background().await;
    drop(state);
    // Lets a restart in the same process open the database again.
    store.shutdown().await;
    served.context("the server failed")
}

//! The gRPC health service (`grpc.health.v1`) following what a service
//! cannot work without, its database: the server (`""`) and each of its
//! services report SERVING while a ping answers and NOT_SERVING while it
//! does not, checked at a fixed interval. So a readiness probe or a load
//! balancer takes an instance that lost its database out of rotation, and
//! puts it back once the database answers. Nothing else changes: a request
//! still succeeds or fails on its own.
//!
//! The same answer over plain HTTP, for probes that speak no gRPC:
//! `GET /readyz` is 200 while serving and 503 while not; `GET /livez` is
//! 200 whenever the process answers at all (a lost database is a reason to
//! take an instance out of rotation, not to restart it).

use std::fmt::Display;
use std::future::Future;
use std::time::Duration;

use axum::{Json, Router, http::StatusCode, routing::get};
use serde_json::{Value, json};
use tokio::sync::watch;
use tokio::time::MissedTickBehavior;
use tonic_health::ServingStatus;
use tonic_health::pb::health_server::{Health, HealthServer};
use tonic_health::server::HealthReporter;

/// A ping slower than this (or than the check interval, if longer) counts
/// as no answer.
const PING_LIMIT: Duration = Duration::from_secs(1);

/// The gRPC health service, reporting `names` as serving; the HTTP routes
/// `/readyz` and `/livez` (merge them into the REST router); and the task
/// that keeps both following `ping` every `every` (spawn it; it runs until
/// aborted).
pub async fn service<P, F, E>(
    names: &'static [&'static str],
    every: Duration,
    ping: P,
) -> (HealthServer<impl Health>, Router, impl Future<Output = ()>)
where
    P: FnMut() -> F,
    F: Future<Output = Result<(), E>>,
    E: Display,
{
    let (reporter, server) = tonic_health::server::health_reporter();
    report(&reporter, names, true).await;
    let (ready, readiness) = watch::channel(true);
    let follow = follow(reporter, ready, names, every, ping);
    (server, routes(readiness), follow)
}

/// `GET /readyz` (200 or 503, as the gRPC health says) and `GET /livez`.
fn routes(readiness: watch::Receiver<bool>) -> Router {
    Router::new()
        .route(
            "/readyz",
            get(move || {
                let serving = *readiness.borrow();
                async move { readyz(serving) }
            }),
        )
        .route("/livez", get(|| async { Json(json!({ "live": true })) }))
}

/// The answer of `/readyz`, its body named as in `grpc.health.v1`.
fn readyz(serving: bool) -> (StatusCode, Json<Value>) {
    if serving {
        (StatusCode::OK, Json(json!({ "status": "SERVING" })))
    } else {
        let body = Json(json!({ "status": "NOT_SERVING" }));
        (StatusCode::SERVICE_UNAVAILABLE, body)
    }
}

/// Reports every one of `names` as serving or not. They stand and fall
/// together, as all of them need the database.
async fn report(reporter: &HealthReporter, names: &[&str], serving: bool) {
    let status = if serving {
        ServingStatus::Serving
    } else {
        ServingStatus::NotServing
    };
    for name in names {
        reporter.set_service_status(name, status).await;
    }
}

/// Calls `ping` every `every` and reports `names` (and `ready`, for the
/// HTTP routes) as serving or not when its answer changes; runs until
/// aborted. Starts from serving (a service connects to its database before
/// it begins to serve).
async fn follow<P, F, E>(
    reporter: HealthReporter,
    ready: watch::Sender<bool>,
    names: &'static [&'static str],
    every: Duration,
    mut ping: P,
) where
    P: FnMut() -> F,
    F: Future<Output = Result<(), E>>,
    E: Display,
{
    let mut serving = true;
    let mut ticks = tokio::time::interval(every);
    ticks.set_missed_tick_behavior(MissedTickBehavior::Delay);
    loop {
        ticks.tick().await;
        let answer = tokio::time::timeout(every.max(PING_LIMIT), ping()).await;
        let answers = matches!(answer, Ok(Ok(())));
        if answers == serving {
            continue;
        }
        match answer {
            Ok(Ok(())) => tracing::info!("the database answers again: health SERVING"),
            Ok(Err(error)) => {
                tracing::warn!(%error, "the database does not answer: health NOT_SERVING");
            }
            Err(_) => tracing::warn!("the database did not answer in time: health NOT_SERVING"),
        }
        report(&reporter, names, answers).await;
        ready.send_replace(answers);
        serving = answers;
    }
}

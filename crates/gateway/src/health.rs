//! The gRPC health service (`grpc.health.v1`) following what a service
//! cannot work without, its database: the server (`""`) and each of its
//! services report SERVING while a ping answers and NOT_SERVING while it
//! does not, checked at a fixed interval. So a readiness probe or a load
//! balancer takes an instance that lost its database out of rotation, and
//! puts it back once the database answers. Nothing else changes: a request
//! still succeeds or fails on its own.

use std::fmt::Display;
use std::future::Future;
use std::time::Duration;

use tokio::time::MissedTickBehavior;
use tonic_health::ServingStatus;
use tonic_health::pb::health_server::{Health, HealthServer};
use tonic_health::server::HealthReporter;

/// A ping slower than this (or than the check interval, if longer) counts
/// as no answer.
const PING_LIMIT: Duration = Duration::from_secs(1);

/// The health service, reporting `names` as serving, and the task that
/// keeps it following `ping` every `every` (spawn it; it runs until
/// aborted).
pub async fn service<P, F, E>(
    names: &'static [&'static str],
    every: Duration,
    ping: P,
) -> (HealthServer<impl Health>, impl Future<Output = ()>)
where
    P: FnMut() -> F,
    F: Future<Output = Result<(), E>>,
    E: Display,
{
    let (reporter, server) = tonic_health::server::health_reporter();
    report(&reporter, names, true).await;
    (server, follow(reporter, names, every, ping))
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

/// Calls `ping` every `every` and reports `names` as serving or not when
/// its answer changes; runs until aborted. Starts from serving (a service
/// connects to its database before it begins to serve).
async fn follow<P, F, E>(
    reporter: HealthReporter,
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
        serving = answers;
    }
}

//! The gRPC health service (`grpc.health.v1`): the server (`""`) and each
//! of its services report SERVING while the database answers and
//! NOT_SERVING while it does not, checked every `health_check_ms`. So a
//! readiness probe or a load balancer takes an instance that lost its
//! database out of rotation, and puts it back once the database answers.
//! Nothing else changes: a move is never acknowledged before its commit,
//! whatever the health service says.

use std::time::Duration;

use skit_proto::v1::{account_service_server, game_service_server, rating_service_server};
use skit_store::Store;
use tokio::time::MissedTickBehavior;
use tonic_health::ServingStatus;
use tonic_health::server::HealthReporter;

/// Every name the health service answers for: the whole server and each
/// service. They stand and fall together, as all of them need the database.
const NAMES: [&str; 4] = [
    "",
    game_service_server::SERVICE_NAME,
    account_service_server::SERVICE_NAME,
    rating_service_server::SERVICE_NAME,
];

/// A ping slower than this (or than the check interval, if longer) counts
/// as no answer.
const PING_LIMIT: Duration = Duration::from_secs(1);

/// Reports every name as serving or not.
pub(crate) async fn report(reporter: &HealthReporter, serving: bool) {
    let status = if serving {
        ServingStatus::Serving
    } else {
        ServingStatus::NotServing
    };
    for name in NAMES {
        reporter.set_service_status(name, status).await;
    }
}

/// Pings the database every `every` and reports a change of its answer;
/// runs until aborted. Starts from serving (the service connected to the
/// database before it began to serve).
pub(crate) async fn follow_database(store: Store, reporter: HealthReporter, every: Duration) {
    let mut serving = true;
    let mut ticks = tokio::time::interval(every);
    ticks.set_missed_tick_behavior(MissedTickBehavior::Delay);
    loop {
        ticks.tick().await;
        let answer = tokio::time::timeout(every.max(PING_LIMIT), store.ping()).await;
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
        report(&reporter, answers).await;
        serving = answers;
    }
}

//! Which failures are passing (the service restarting, a dropped
//! connection, an overloaded instance) and how calls are retried after them.

use std::future::Future;
use std::time::Duration;

use backon::{ExponentialBuilder, Retryable};
use tonic::{Code, Status};

/// A failure that may well not happen again: retry the same request. Safe
/// for moves too, since a resent move id returns the first result.
pub fn passing(status: &Status) -> bool {
    matches!(
        status.code(),
        Code::Unavailable
            | Code::DeadlineExceeded
            | Code::ResourceExhausted
            | Code::Internal
            | Code::Unknown
            | Code::Cancelled
    )
}

/// Exponential backoff with jitter from 50 ms up to `max_delay`.
pub fn policy(times: usize, max_delay: Duration) -> ExponentialBuilder {
    ExponentialBuilder::default()
        .with_min_delay(Duration::from_millis(50))
        .with_max_delay(max_delay)
        .with_max_times(times)
        .with_jitter()
}

/// Without end, from 50 ms up to 5 s: for calls the worker cannot do
/// without (provisioning), made while the service may not be up yet. Run
/// them against a stop signal.
pub fn patiently() -> ExponentialBuilder {
    ExponentialBuilder::default()
        .with_min_delay(Duration::from_millis(50))
        .with_max_delay(PATIENT_MAX_DELAY)
        .without_max_times()
        .with_jitter()
}

/// The longest wait between two tries of [`patiently`].
const PATIENT_MAX_DELAY: Duration = Duration::from_secs(5);

/// `call` until it succeeds, fails for good, or the retries run out.
pub async fn retried<T, F, Fut>(
    what: &'static str,
    policy: ExponentialBuilder,
    call: F,
) -> Result<T, Status>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, Status>>,
{
    call.retry(policy)
        .when(passing)
        .notify(|status: &Status, after: Duration| {
            tracing::warn!(code = ?status.code(), message = status.message(), ?after, "{what} failed; retrying");
        })
        .await
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use tokio::time::Instant;

    use super::*;

    /// What a balancer's answers look like to a gRPC client while no
    /// instance is up: a 503 (UNAVAILABLE), and an HTML error page that
    /// is no gRPC answer (UNKNOWN or INTERNAL).
    fn balancer_failure(n: usize) -> Status {
        match n % 3 {
            0 => Status::unavailable("protocol error: received HTTP status 503"),
            1 => Status::unknown(
                "grpc-status header missing, mapped from HTTP status code 503 (content-type text/html)",
            ),
            _ => Status::internal(
                "protocol error: received message with invalid compression flag: 60",
            ),
        }
    }

    #[tokio::test(start_paused = true)]
    async fn a_service_not_up_for_a_minute_is_waited_for_with_backoff() {
        let calls = AtomicUsize::new(0);
        let started = Instant::now();

        let answer = retried("test", patiently(), || {
            let n = calls.fetch_add(1, Ordering::SeqCst);
            async move {
                match started.elapsed() < Duration::from_secs(60) {
                    true => Err(balancer_failure(n)),
                    false => Ok(n),
                }
            }
        })
        .await;

        let tries = calls.load(Ordering::SeqCst);
        assert_eq!(answer.expect("retried until it answered"), tries - 1);
        // Backoff, not a busy loop: from 50 ms doubling to 5 s apart, and
        // jitter adds up to as much again (at least 10 tries, 20 without
        // jitter).
        assert!((10..=60).contains(&tries), "{tries} tries in a minute");
        // It tried again within one longest pause (with jitter) of the
        // service coming up.
        assert!(
            started.elapsed() < Duration::from_secs(70),
            "{:?}",
            started.elapsed()
        );
    }

    #[tokio::test(start_paused = true)]
    async fn a_refusal_for_good_is_not_retried() {
        let calls = AtomicUsize::new(0);
        let started = Instant::now();

        let answer: Result<(), Status> = retried("test", patiently(), || {
            calls.fetch_add(1, Ordering::SeqCst);
            async { Err(Status::permission_denied("not the operator")) }
        })
        .await;

        assert_eq!(answer.expect_err("refused").code(), Code::PermissionDenied);
        assert_eq!(calls.load(Ordering::SeqCst), 1);
        assert_eq!(started.elapsed(), Duration::ZERO);
    }
}

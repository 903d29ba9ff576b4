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

//! Calls sent again when the service asks: under more load than it takes,
//! or while its database is briefly unavailable, the service answers
//! UNAVAILABLE or RESOURCE_EXHAUSTED with a retry hint (`RetryInfo`), and
//! the tool waits that long (and a random part more, so shed callers do
//! not all come back at once) and sends the same call again. A move keeps
//! its move id and a new game its request id, so a call that did its work
//! before its answer was lost is answered as the first time, never done
//! twice. Any other failure, or one without a hint, is the call's answer.
//!
//! The wait ends early when the run stops: the call then has no answer.

use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use tokio::sync::watch;
use tonic::{Code, Status};
use tonic_types::StatusExt;

/// How many calls were shed, by code, and so sent again.
#[derive(Debug, Default)]
pub struct Sheds {
    pub unavailable: AtomicU64,
    pub exhausted: AtomicU64,
}

impl Sheds {
    fn count(&self, code: Code) {
        let counter = match code {
            Code::ResourceExhausted => &self.exhausted,
            _ => &self.unavailable,
        };
        counter.fetch_add(1, Ordering::Relaxed);
    }
}

/// The wait the service asked for, if `status` is a shed call.
pub fn hint(status: &Status) -> Option<Duration> {
    if !matches!(status.code(), Code::Unavailable | Code::ResourceExhausted) {
        return None;
    }
    status.get_details_retry_info()?.retry_delay
}

/// `call`'s answer, sending it again after each shed; `Ok(None)` if the
/// run stopped (`stop` became true) while it waited to send again.
pub async fn retried<T, F, Fut>(
    stop: &watch::Sender<bool>,
    sheds: &Sheds,
    mut call: F,
) -> Result<Option<T>, Status>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, Status>>,
{
    loop {
        let status = match call().await {
            Ok(answer) => return Ok(Some(answer)),
            Err(status) => status,
        };
        let Some(delay) = hint(&status) else {
            return Err(status);
        };
        sheds.count(status.code());
        let wait = delay.mul_f64(1.0 + rand::random::<f64>() / 2.0);
        let mut stopped = stop.subscribe();
        if tokio::time::timeout(wait, stopped.wait_for(|stop| *stop))
            .await
            .is_ok()
        {
            return Ok(None);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicUsize;

    use skit_api::ApiError;

    use super::*;

    #[tokio::test(start_paused = true)]
    async fn a_shed_call_is_sent_again_after_the_hint() {
        let (stop, _) = watch::channel(false);
        let sheds = Sheds::default();
        let calls = AtomicUsize::new(0);
        let answer = retried(&stop, &sheds, || async {
            match calls.fetch_add(1, Ordering::Relaxed) {
                0 => Err(Status::from(ApiError::rate_limited(
                    "moves",
                    Duration::from_millis(20),
                ))),
                1 => Err(Status::from(ApiError::unavailable(
                    "busy",
                    Duration::from_millis(20),
                ))),
                _ => Ok(7),
            }
        })
        .await;
        assert_eq!(answer.map_err(|s| s.code()), Ok(Some(7)));
        assert_eq!(calls.load(Ordering::Relaxed), 3);
        assert_eq!(sheds.exhausted.load(Ordering::Relaxed), 1);
        assert_eq!(sheds.unavailable.load(Ordering::Relaxed), 1);
    }

    #[tokio::test(start_paused = true)]
    async fn a_failure_without_a_hint_is_the_answer() {
        let (stop, _) = watch::channel(false);
        let sheds = Sheds::default();
        let answer: Result<Option<()>, Status> = retried(&stop, &sheds, || async {
            Err(Status::unavailable("no hint"))
        })
        .await;
        assert_eq!(answer.map_err(|s| s.code()), Err(Code::Unavailable));
        let internal: Result<Option<()>, Status> =
            retried(&stop, &sheds, || async { Err(Status::internal("boom")) }).await;
        assert_eq!(internal.map_err(|s| s.code()), Err(Code::Internal));
        assert_eq!(sheds.unavailable.load(Ordering::Relaxed), 0);
    }

    #[tokio::test(start_paused = true)]
    async fn stopping_ends_the_wait_without_an_answer() {
        let (stop, _) = watch::channel(false);
        let sheds = Sheds::default();
        let waiting = retried(&stop, &sheds, || async {
            Err::<(), _>(Status::from(ApiError::unavailable(
                "busy",
                Duration::from_secs(3600),
            )))
        });
        let stopping = async {
            tokio::time::sleep(Duration::from_millis(5)).await;
            stop.send_replace(true);
        };
        let (answer, ()) = tokio::join!(waiting, stopping);
        assert_eq!(answer.map_err(|s| s.code()), Ok(None));
        assert_eq!(sheds.unavailable.load(Ordering::Relaxed), 1);
    }
}

//! HTTP/1's header read timeout, counted from a request's first byte.
//!
//! hyper starts its header timer as soon as a connection waits for the
//! next request's head, so an idle keep-alive connection was closed at the
//! header timeout (10 s) long before the idle timeout (120 s) that should
//! govern it. hyper asks the HTTP/1 timer it is given for that timer
//! alone; this one, given to each connection, hands out sleeps that:
//!
//! - for the connection's first request, run from when hyper asks (the
//!   first bytes have arrived by then: the protocol was read from them);
//! - for every later request, start only once a byte of it arrives, so a
//!   connection idle between requests waits for the idle timeout, and a
//!   head that has begun must still arrive within the header timeout.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

/// One connection's header timer; `reads` counts its reads that brought
/// bytes ([`crate::conn::Connection::reads`]).
#[derive(Debug)]
pub(crate) struct HeadTimer {
    reads: Arc<AtomicU64>,
    asked: AtomicBool,
}

impl HeadTimer {
    pub(crate) fn new(reads: Arc<AtomicU64>) -> Self {
        Self {
            reads,
            asked: AtomicBool::new(false),
        }
    }
}

impl hyper::rt::Timer for HeadTimer {
    fn sleep(&self, duration: Duration) -> Pin<Box<dyn hyper::rt::Sleep>> {
        self.sleep_until(Instant::now() + duration)
    }

    fn sleep_until(&self, deadline: Instant) -> Pin<Box<dyn hyper::rt::Sleep>> {
        let limit = deadline.saturating_duration_since(Instant::now());
        let first = !self.asked.swap(true, Ordering::SeqCst);
        Box::pin(HeadSleep {
            limit,
            reads_before: self.reads.load(Ordering::SeqCst),
            reads: self.reads.clone(),
            sleep: first.then(|| Box::pin(tokio::time::sleep(limit))),
        })
    }
}

/// A header timeout: pending until a byte arrives (unless it is the
/// first request's), then the timeout from that moment.
struct HeadSleep {
    limit: Duration,
    reads_before: u64,
    reads: Arc<AtomicU64>,
    sleep: Option<Pin<Box<tokio::time::Sleep>>>,
}

impl Future for HeadSleep {
    type Output = ();

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        let this = self.get_mut();
        let sleep = match &mut this.sleep {
            Some(sleep) => sleep,
            // Nothing of the next request yet. hyper polls this right
            // after reading the connection, so the read that brings its
            // first byte wakes the task and polls this again.
            None if this.reads.load(Ordering::SeqCst) == this.reads_before => {
                return Poll::Pending;
            }
            None => this.sleep.insert(Box::pin(tokio::time::sleep(this.limit))),
        };
        sleep.as_mut().poll(cx)
    }
}

impl hyper::rt::Sleep for HeadSleep {}

#[cfg(test)]
mod tests {
    use hyper::rt::Timer;

    use super::*;

    /// Whether `sleep` is done after `wait`.
    async fn done_after(sleep: &mut Pin<Box<dyn hyper::rt::Sleep>>, wait: Duration) -> bool {
        tokio::time::timeout(wait, sleep.as_mut()).await.is_ok()
    }

    #[tokio::test(start_paused = true)]
    async fn later_heads_are_timed_from_their_first_byte() {
        let reads = Arc::new(AtomicU64::new(1));
        let timer = HeadTimer::new(reads.clone());
        let limit = Duration::from_secs(10);

        let mut first = timer.sleep(limit);
        let past = limit + Duration::from_millis(1);
        assert!(done_after(&mut first, past).await, "the first head");

        let mut next = timer.sleep(limit);
        assert!(
            !done_after(&mut next, limit * 30).await,
            "idle, no byte yet"
        );
        reads.fetch_add(1, Ordering::SeqCst);
        assert!(!done_after(&mut next, limit / 2).await);
        assert!(done_after(&mut next, limit).await, "a head begun");
    }
}

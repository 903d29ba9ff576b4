//! Write coalescing: a woken connection lets the tasks already queued on
//! its worker run before it polls its connection, once per wake-up.
//!
//! Each call of an HTTP/2 connection runs as its own task and wakes the
//! connection's task when it has a frame to send; the runtime runs a task
//! woken that way next, so a move reaching a hundred spectators on one
//! connection left in a hundred writes, one frame each. Stepping back once
//! puts the connection behind the calls already queued: their frames are
//! in its buffer when it writes, and leave together (the same idea as
//! Netty's flush consolidation). With nothing else queued the connection
//! is polled again at once.

use std::{
    future::Future,
    pin::Pin,
    task::{Context, Poll},
};

/// `inner`, polled only after it has stepped back once per wake-up.
pub(super) struct Coalesced<F> {
    inner: Pin<Box<F>>,
    stepped_back: bool,
}

impl<F: Future> Coalesced<F> {
    pub(super) fn new(inner: F) -> Self {
        Coalesced {
            inner: Box::pin(inner),
            stepped_back: false,
        }
    }
}

impl<F: Future> Future for Coalesced<F> {
    type Output = F::Output;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<F::Output> {
        if !self.stepped_back {
            // A task that wakes itself while it runs goes to the back of
            // its worker's queue.
            self.stepped_back = true;
            cx.waker().wake_by_ref();
            return Poll::Pending;
        }
        self.stepped_back = false;
        self.inner.as_mut().poll(cx)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{
        Arc,
        atomic::{AtomicUsize, Ordering},
    };

    use super::*;

    /// A task queued before the connection's wake-up runs before the
    /// connection is polled, and the connection's output is unchanged.
    #[tokio::test(flavor = "current_thread")]
    async fn queued_tasks_run_first() {
        let order = Arc::new(AtomicUsize::new(0));
        let (first, second) = (order.clone(), order.clone());
        let connection = tokio::spawn(Coalesced::new(async move {
            second.fetch_add(10, Ordering::SeqCst);
            second.load(Ordering::SeqCst)
        }));
        let queued = tokio::spawn(async move {
            first.fetch_add(1, Ordering::SeqCst);
        });
        let seen = connection.await.expect("the connection task ends");
        queued.await.expect("the queued task ends");
        assert_eq!(seen, 11, "the task queued after it ran first");
    }
}

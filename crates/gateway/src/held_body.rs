//! An answer's body that holds something (a place under a cap, a mark
//! that a call is in flight) until the body is done or dropped: for a
//! stream, until it ends.

use std::{
    pin::Pin,
    task::{Context, Poll},
};

use axum::body::{Body, Bytes};
use http_body::{Frame, SizeHint};

/// `inner`, holding `held` until dropped.
pub(crate) struct HeldBody<H> {
    inner: Body,
    _held: H,
}

impl<H: Send + 'static> HeldBody<H> {
    /// `body` as a body holding `held`.
    pub(crate) fn wrap(body: Body, held: H) -> Body {
        Body::new(HeldBody {
            inner: body,
            _held: held,
        })
    }
}

// The body is boxed and Unpin; the held value is never pinned.
impl<H> Unpin for HeldBody<H> {}

impl<H> http_body::Body for HeldBody<H> {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        Pin::new(&mut self.inner).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

//! The server's connections: TCP with `TCP_NODELAY`, telling the HTTP/2
//! writer (h2) that they have no vectored writes, and counting the reads
//! that bring bytes (an HTTP/1 request's header timeout starts at its
//! first byte: `server/head_timer.rs`).
//!
//! With vectored writes h2 keeps a DATA payload over 256 bytes out of its
//! write buffer and must write it before it can encode another frame, so
//! every gRPC response of that size (a view is about 1 KB) went out in two
//! writes: its headers and data, then its trailers. Without them, h2
//! copies payloads up to 1 KB into its buffer, so such a response leaves
//! in one write (measured: 2.0 writes per response before, 1.35 after,
//! the rest from bigger views; docs/performance.md).

use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;

/// `tcp` ready to serve: `TCP_NODELAY` set, writes never vectored.
pub(crate) fn prepare(tcp: TcpStream) -> Connection {
    // Without TCP_NODELAY a small response can wait for the client's
    // delayed ACK (about 40 ms): every move would pay it.
    if let Err(error) = tcp.set_nodelay(true) {
        tracing::warn!(%error, "cannot set TCP_NODELAY");
    }
    Connection {
        tcp,
        reads: Arc::default(),
    }
}

/// An accepted TCP connection whose writes are never vectored.
#[derive(Debug)]
pub struct Connection {
    tcp: TcpStream,
    reads: Arc<AtomicU64>,
}

impl Connection {
    /// How many reads have brought bytes, as they happen.
    pub(crate) fn reads(&self) -> Arc<AtomicU64> {
        self.reads.clone()
    }
}

impl AsyncRead for Connection {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let read = Pin::new(&mut self.tcp).poll_read(cx, buf);
        if buf.filled().len() > before {
            self.reads.fetch_add(1, Ordering::SeqCst);
        }
        read
    }
}

impl AsyncWrite for Connection {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.tcp).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.tcp).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.tcp).poll_shutdown(cx)
    }

    fn is_write_vectored(&self) -> bool {
        false
    }
}

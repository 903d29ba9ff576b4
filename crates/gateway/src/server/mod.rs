//! The serve loop: HTTP/1.1 and h2c on one port (hyper-util's automatic
//! builder), each connection as in `conn.rs`, with the protections a
//! public port needs:
//!
//! - an HTTP/1 request's headers must arrive within a timeout from its
//!   first byte ([`head_timer`]), so a half-sent request is dropped while
//!   an idle keep-alive connection waits for the idle timeout;
//! - a connection with no call in flight closes after an idle timeout;
//! - caps on open connections, in all and per peer address; at a cap an
//!   idle connection makes room ([`registry`]) before a new one is refused;
//! - a cap on concurrent calls per HTTP/2 connection;
//! - the open-files limit raised at start ([`open_files`]).
//!
//! A woken connection steps back behind the tasks already queued before it
//! writes, so frames that many calls send at once leave together
//! ([`coalesce`]).
//!
//! Every request carries its peer's address ([`PeerAddr`]) for the limits.
//! On shutdown the listener closes, every connection is asked to finish
//! its calls and close (HTTP/2 GOAWAY, HTTP/1 `Connection: close`), and
//! the loop returns once all have, or once the shutdown grace has passed,
//! closing those still open. Streams that never end on their own are the
//! application's to end when shutdown begins ([`stop_signal`] for the
//! process's part).

mod coalesce;
mod head_timer;
mod open_files;
mod registry;
mod signal;

use std::{convert::Infallible, future::Future, io, net::SocketAddr, time::Duration};

use axum::{Router, extract::Request};
use hyper::body::Incoming;
use hyper_util::{
    rt::{TokioExecutor, TokioIo, TokioTimer},
    server::conn::auto::Builder,
};
use tokio::{net::TcpListener, sync::watch};
use tokio_util::task::TaskTracker;
use tower::ServiceExt;

use crate::{
    conn::{self, Connection},
    held_body::HeldBody,
    limits::{Connections, client::PeerAddr},
};
use coalesce::Coalesced;
use head_timer::HeadTimer;
use registry::{Admitted, Closing, Registry, Slot};

pub use registry::OPEN;
pub use signal::stop_signal;
/// The counter of connections the server closed or refused, by reason.
pub const CLOSED: &str = "skit_connections_closed_total";

/// Serves `app` on an already bound listener (HTTP/1.1 and h2c) until
/// `shutdown` completes, with the default [`Connections`] protections;
/// tests bind port 0.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> io::Result<()> {
    serve_with(listener, app, &Connections::default(), shutdown).await
}

/// [`serve`] with the given protections.
pub async fn serve_with(
    listener: TcpListener,
    app: Router,
    limits: &Connections,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> io::Result<()> {
    let max_total = open_files::fit(limits.max_connections, open_files::raise());
    tracing::info!(
        max_connections = max_total,
        max_connections_per_ip = limits.max_connections_per_ip,
        "accepting connections"
    );
    let registry = Registry::new(
        max_total,
        limits.max_connections_per_ip,
        limits.trusted_proxies.clone(),
    );
    let connections = TaskTracker::new();
    let (stop, stopping) = watch::channel(false);
    let (hard_stop, closing_now) = watch::channel(false);
    tokio::pin!(shutdown);
    loop {
        let (tcp, peer) = tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(error) => {
                    accept_failed(error).await;
                    continue;
                }
            },
        };
        let slot = match registry.admit(peer.ip()) {
            Some(Admitted::Freely(slot)) => slot,
            Some(Admitted::Evicting(slot)) => {
                closed("evicted");
                slot
            }
            None => {
                closed("refused");
                continue;
            }
        };
        let io = conn::prepare(tcp);
        let connection = Served {
            builder: builder(limits, HeadTimer::new(io.reads())),
            io,
            peer,
            app: app.clone(),
            slot,
            idle: limits.idle_timeout,
        };
        connections.spawn(Coalesced::new(
            connection.run(stopping.clone(), closing_now.clone()),
        ));
    }
    drop(listener);
    let _ = stop.send(true);
    connections.close();
    if tokio::time::timeout(limits.shutdown_grace, connections.wait())
        .await
        .is_err()
    {
        tracing::warn!(
            open = connections.len(),
            grace_ms = limits.shutdown_grace.as_millis(),
            "calls still in flight after the shutdown grace; closing their connections"
        );
        let _ = hard_stop.send(true);
        connections.wait().await;
    }
    Ok(())
}

/// One connection's builder: `head_timer` is its HTTP/1 header timer.
fn builder(limits: &Connections, head_timer: HeadTimer) -> Builder<TokioExecutor> {
    let mut builder = Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(head_timer)
        .header_read_timeout(limits.header_read_timeout);
    builder
        .http2()
        .timer(TokioTimer::new())
        .max_concurrent_streams(limits.http2_max_concurrent_streams);
    builder
}

/// An accept that failed: a connection gone before it was accepted is
/// nothing; anything else (out of files) is logged, and the loop pauses
/// briefly rather than spin.
async fn accept_failed(error: io::Error) {
    use io::ErrorKind::{ConnectionAborted, ConnectionRefused, ConnectionReset};
    if matches!(
        error.kind(),
        ConnectionAborted | ConnectionRefused | ConnectionReset
    ) {
        return;
    }
    tracing::warn!(%error, "cannot accept a connection");
    tokio::time::sleep(Duration::from_millis(50)).await;
}

fn closed(reason: &'static str) {
    metrics::counter!(CLOSED, "reason" => reason).increment(1);
}

/// One accepted connection and what serves it.
struct Served {
    builder: Builder<TokioExecutor>,
    io: Connection,
    peer: SocketAddr,
    app: Router,
    slot: Slot,
    idle: Duration,
}

impl Served {
    /// Serves until the peer or the idle timeout closes the connection;
    /// on `stopping`, finishes the calls in flight (until `closing_now`).
    async fn run(
        self,
        mut stopping: watch::Receiver<bool>,
        mut closing_now: watch::Receiver<bool>,
    ) {
        let Served {
            builder,
            io,
            peer,
            app,
            slot,
            idle,
        } = self;
        let activity = slot.activity.clone();
        let service = hyper::service::service_fn(move |mut request: Request<Incoming>| {
            request.extensions_mut().insert(PeerAddr(peer));
            let busy = activity.begin();
            let answer = app.clone().oneshot(request);
            async move {
                let response = answer.await?;
                Ok::<_, Infallible>(response.map(|body| HeldBody::wrap(body, busy)))
            }
        });
        let connection = builder.serve_connection_with_upgrades(TokioIo::new(io), service);
        tokio::pin!(connection);
        let closing = tokio::select! {
            result = connection.as_mut() => {
                if let Err(error) = result {
                    tracing::debug!(%error, %peer, "connection ended");
                }
                return;
            }
            closing = slot.activity.closing(idle) => Some(closing),
            _ = stopping.wait_for(|stop| *stop) => None,
        };
        match closing {
            Some(Closing::Idle) => closed("idle"),
            // Made room before it sent anything: nothing to finish.
            Some(Closing::Evicted) if !slot.activity.served() => return,
            Some(Closing::Evicted) | None => {}
        }
        connection.as_mut().graceful_shutdown();
        tokio::select! {
            result = connection => if let Err(error) = result {
                tracing::debug!(%error, %peer, "connection ended");
            },
            _ = closing_now.wait_for(|now| *now) => closed("shutdown"),
        }
    }
}

//! The worker's health over HTTP, for probes (`SKIT_BOT_HEALTH_ADDR`):
//! `GET /livez` is 200 while the process answers; `GET /readyz` is 200
//! once the accounts are provisioned and the worker plays, 503 before
//! (while it still waits for the game service); `GET /metrics` for
//! Prometheus, so the worker is counted among the instances answering.

use std::net::SocketAddr;

use anyhow::Context;
use axum::{http::StatusCode, routing::get};
use tokio::sync::watch;

/// Says the worker is ready; dropping it changes nothing.
#[derive(Debug)]
pub struct Readiness(watch::Sender<bool>);

impl Readiness {
    /// From now on `/readyz` answers 200.
    pub fn ready(&self) {
        self.0.send_replace(true);
    }
}

/// Listens on `addr` and answers the probes until the process ends;
/// returns the address bound (port 0 picks one) and the readiness switch.
pub async fn serve(addr: &str) -> anyhow::Result<(SocketAddr, Readiness)> {
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .with_context(|| format!("cannot listen on {addr} for health probes"))?;
    let bound = listener.local_addr()?;
    let (switch, readiness) = watch::channel(false);
    if let Err(problem) = skit_gateway::install_metrics() {
        tracing::warn!(%problem, "no metrics at /metrics");
    }
    let routes = skit_gateway::metrics_routes()
        .route("/livez", get(|| async { StatusCode::OK }))
        .route(
            "/readyz",
            get(move || {
                let ready = *readiness.borrow();
                async move {
                    match ready {
                        true => StatusCode::OK,
                        false => StatusCode::SERVICE_UNAVAILABLE,
                    }
                }
            }),
        );
    tokio::spawn(async move {
        if let Err(error) = axum::serve(listener, routes).await {
            tracing::error!(%error, "the health probes' server stopped");
        }
    });
    tracing::info!(addr = %bound, "answering health probes");
    Ok((bound, Readiness(switch)))
}

#[cfg(test)]
mod tests {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    use super::*;

    async fn status(addr: SocketAddr, path: &str) -> String {
        let mut stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
        let request = format!("GET {path} HTTP/1.1\r\nHost: probe\r\nConnection: close\r\n\r\n");
        stream.write_all(request.as_bytes()).await.expect("write");
        let mut answer = String::new();
        stream.read_to_string(&mut answer).await.expect("read");
        answer
            .split_whitespace()
            .nth(1)
            .unwrap_or_default()
            .to_owned()
    }

    #[tokio::test]
    async fn ready_only_once_told_and_live_throughout() {
        let (addr, readiness) = serve("127.0.0.1:0").await.expect("serve");

        assert_eq!(status(addr, "/livez").await, "200");
        assert_eq!(status(addr, "/readyz").await, "503");
        readiness.ready();
        assert_eq!(status(addr, "/readyz").await, "200");
        assert_eq!(status(addr, "/livez").await, "200");
        assert_eq!(status(addr, "/metrics").await, "200");
    }
}

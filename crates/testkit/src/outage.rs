//! A database server that goes away and comes back: a TCP proxy in front
//! of a PostgreSQL test database. A service pointed at [`DbProxy::url`]
//! works as usual until [`DbProxy::cut`]: then every connection through
//! the proxy ends and new ones are accepted but never answered, as when
//! the server's host stops responding. [`DbProxy::restore`] forwards again.

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde_json::Value;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Notify;
use tokio::task::{JoinHandle, JoinSet};
use tonic::codegen::http::HeaderMap;
use tonic::{Code, Status};
use tonic_types::StatusExt;
use url::Url;

use crate::TestDb;
use crate::running::bind;

/// A proxy in front of one test database, stopped on drop.
#[derive(Debug)]
pub struct DbProxy {
    url: String,
    state: Arc<State>,
    accepting: JoinHandle<()>,
}

#[derive(Debug, Default)]
struct State {
    cut: AtomicBool,
    /// Wakes every connection when the proxy is cut.
    cutting: Notify,
}

impl DbProxy {
    /// A proxy to `db` on a free port of 127.0.0.1, forwarding.
    ///
    /// # Panics
    /// If `db` is not a PostgreSQL database with a host in its URL.
    pub async fn start(db: &TestDb) -> Self {
        let mut url = Url::parse(db.url()).unwrap_or_else(|e| panic!("{}: {e}", db.url()));
        let scheme = url.scheme();
        assert!(
            scheme == "postgres" || scheme == "postgresql",
            "a proxy is for PostgreSQL, not {scheme}"
        );
        let host = url.host_str().expect("a host in the database URL");
        let upstream = format!("{host}:{}", url.port().unwrap_or(5432));
        let (listener, addr) = bind().await;
        set_addr(&mut url, addr);
        let state = Arc::new(State::default());
        let accepting = tokio::spawn(accept(listener, upstream, state.clone()));
        Self {
            url: url.into(),
            state,
            accepting,
        }
    }

    /// The database's URL through the proxy: give it to the service.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Ends every connection through the proxy; new ones hang unanswered
    /// until [`DbProxy::restore`].
    pub fn cut(&self) {
        self.state.cut.store(true, Ordering::SeqCst);
        self.state.cutting.notify_waiters();
    }

    /// Forwards new connections again (those that hung stay dead).
    pub fn restore(&self) {
        self.state.cut.store(false, Ordering::SeqCst);
    }
}

impl Drop for DbProxy {
    fn drop(&mut self) {
        self.accepting.abort();
    }
}

/// `call`, again while it answers UNAVAILABLE (a service's connection the
/// outage broke may fail once more) for at most ten seconds; its last
/// answer.
pub async fn served_again<T, F>(mut call: impl FnMut() -> F) -> Result<T, Status>
where
    F: Future<Output = Result<T, Status>>,
{
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let answer = call().await;
        match &answer {
            Err(status) if status.code() == Code::Unavailable && Instant::now() < deadline => {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            _ => return answer,
        }
    }
}

/// Asserts that an UNAVAILABLE answer tells the client when to retry:
/// gRPC RetryInfo with a delay; over REST, `retryDelay` in the body and a
/// `Retry-After` header of at least one whole second.
pub fn assert_retry_hint(grpc: &Status, rest_headers: &HeaderMap, rest_body: &Value) {
    let retry = grpc.get_details_retry_info().expect("RetryInfo");
    assert!(retry.retry_delay.is_some_and(|d| !d.is_zero()), "{retry:?}");
    assert!(rest_body["retryDelay"].is_string(), "{rest_body}");
    let retry_after = rest_headers.get("retry-after").expect("Retry-After");
    let seconds: u64 = retry_after
        .to_str()
        .ok()
        .and_then(|s| s.parse().ok())
        .expect("Retry-After in whole seconds");
    assert!(seconds >= 1, "{retry_after:?}");
}

/// Asserts that an outage's answers show nothing of the pool's, the
/// driver's or the network's own words, nor the database's address or name.
pub fn assert_no_internals(grpc: &Status, rest_body: &Value) {
    let text = format!(
        "{} {:?} {rest_body}",
        grpc.message(),
        grpc.get_error_details()
    );
    for word in [
        "pool",
        "timed out",
        "refused",
        "sqlx",
        "127.0.0.1",
        "skit_test",
    ] {
        assert!(!text.contains(word), "{word:?} in {text}");
    }
}

fn set_addr(url: &mut Url, addr: SocketAddr) {
    let host = addr.ip().to_string();
    url.set_host(Some(&host))
        .unwrap_or_else(|e| panic!("host {host}: {e}"));
    url.set_port(Some(addr.port()))
        .unwrap_or_else(|()| panic!("port {}", addr.port()));
}

/// Accepts until aborted; each connection is a task of `connections`,
/// aborted with it.
async fn accept(listener: TcpListener, upstream: String, state: Arc<State>) {
    let mut connections = JoinSet::new();
    while let Ok((client, _)) = listener.accept().await {
        while connections.try_join_next().is_some() {}
        connections.spawn(forward(client, upstream.clone(), state.clone()));
    }
}

/// Forwards one connection until either side closes or the proxy is cut;
/// while cut, holds the connection open without a word.
async fn forward(mut client: TcpStream, upstream: String, state: Arc<State>) {
    let cutting = state.cutting.notified();
    tokio::pin!(cutting);
    cutting.as_mut().enable();
    if state.cut.load(Ordering::SeqCst) {
        std::future::pending::<()>().await;
    }
    let Ok(mut server) = TcpStream::connect(&upstream).await else {
        return;
    };
    tokio::select! {
        _ = tokio::io::copy_bidirectional(&mut client, &mut server) => {}
        () = cutting => {}
    }
}

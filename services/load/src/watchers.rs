//! The watchers `skit-load watch` opens: WatchGame over gRPC (many streams
//! per HTTP/2 connection), over Server-Sent Events (one HTTP/1.1
//! connection each, as a browser's `EventSource`), and GetView long polls
//! (many per HTTP/2 connection). Each records when it received which
//! version. All read little of each view (the gRPC stream decodes its
//! version alone, the SSE one reads the event's `id`, the long poll the
//! fields of [`SeatView`]), so the tool's share of the two cores goes to
//! receiving, not parsing.

use std::time::Instant;

use skit_api::authed;
use skit_proto::v1::{GetViewRequest, WatchGameRequest};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tonic::codegen::http::uri::PathAndQuery;
use tonic::transport::Channel;
use tonic_prost::ProstCodec;

use crate::lean::LeanClient;
const WATCH_GAME: &str = "/skitgubbe.v1.GameService/WatchGame";

/// `skitgubbe.v1.View`'s version alone (same tag).
#[derive(Clone, PartialEq, prost::Message)]
pub struct Version {
    #[prost(uint64, tag = "2")]
    pub version: u64,
}

/// When a watcher received each view: (version, when).
pub type Received = Vec<(u64, Instant)>;

/// Tells the opener the stream is open (its first view arrived).
pub type Opened = tokio::sync::mpsc::UnboundedSender<()>;

/// A gRPC spectator stream until it ends or its game reaches `last`.
pub async fn grpc(
    channel: Channel,
    game_id: String,
    token: String,
    opened: Opened,
    last: tokio::sync::watch::Receiver<u64>,
) -> Result<Received, tonic::Status> {
    let mut grpc = tonic::client::Grpc::new(channel);
    grpc.ready()
        .await
        .map_err(|e| tonic::Status::unavailable(format!("service not ready: {e}")))?;
    let req = WatchGameRequest {
        game_id,
        spectator: true,
        ..Default::default()
    };
    let codec = ProstCodec::<WatchGameRequest, Version>::default();
    let mut stream = grpc
        .server_streaming(
            authed(req, &token)?,
            PathAndQuery::from_static(WATCH_GAME),
            codec,
        )
        .await?
        .into_inner();
    let mut received = Received::new();
    loop {
        let next = tokio::select! {
            next = stream.message() => next?,
            () = reached(&last, &received) => None,
        };
        let Some(view) = next else { break };
        record(&mut received, &opened, view.version, Instant::now());
    }
    Ok(received)
}

/// A spectator that long-polls GetView: each answer's version is the next
/// call's `wait_for_version_after` (and `history_after`, as a client that
/// keeps the history it has), until its game reaches `last`.
pub async fn long_poll(
    channel: Channel,
    game_id: String,
    token: String,
    opened: Opened,
    last: tokio::sync::watch::Receiver<u64>,
) -> Result<Received, tonic::Status> {
    let mut client = LeanClient::new(channel);
    let mut received = Received::new();
    loop {
        let after = received.last().map(|&(v, _)| v);
        let req = GetViewRequest {
            game_id: game_id.clone(),
            spectator: true,
            wait_for_version_after: after,
            history_after: after,
            timeout_ms: 30_000,
            ..Default::default()
        };
        let view = tokio::select! {
            view = client.get_view(authed(req, &token)?) => view?,
            () = reached(&last, &received) => break,
        };
        // A long poll that timed out answers with the version it waited on.
        if after != Some(view.version) {
            record(&mut received, &opened, view.version, Instant::now());
        }
    }
    Ok(received)
}

/// An SSE spectator stream over its own HTTP/1.1 connection, until it ends
/// or its game reaches `last`.
pub async fn sse(
    addr: std::net::SocketAddr,
    game_id: String,
    token: String,
    opened: Opened,
    last: tokio::sync::watch::Receiver<u64>,
) -> std::io::Result<Received> {
    let mut tcp = TcpStream::connect(addr).await?;
    tcp.set_nodelay(true)?;
    let request = format!(
        "GET /v1/games/{game_id}/watch?spectator=true HTTP/1.1\r\nHost: {addr}\r\n\
         Authorization: Bearer {token}\r\nAccept: text/event-stream\r\n\r\n"
    );
    tcp.write_all(request.as_bytes()).await?;
    let mut received = Received::new();
    let mut buffer = vec![0u8; 64 * 1024];
    // The part of a line a read cut off.
    let mut partial = Vec::new();
    let mut status_checked = false;
    loop {
        let n = tokio::select! {
            n = tcp.read(&mut buffer) => n?,
            () = reached(&last, &received) => 0,
        };
        if n == 0 {
            break;
        }
        let now = Instant::now();
        partial.extend_from_slice(&buffer[..n]);
        let complete = partial
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        for line in partial[..complete].split(|&b| b == b'\n') {
            if !status_checked {
                status_checked = true;
                if !line.starts_with(b"HTTP/1.1 200") {
                    let line = String::from_utf8_lossy(line).trim().to_owned();
                    return Err(std::io::Error::other(format!("SSE refused: {line}")));
                }
            }
            if let Some(id) = line.strip_prefix(b"id:") {
                let id = std::str::from_utf8(id).unwrap_or("").trim();
                if let Ok(version) = id.parse() {
                    record(&mut received, &opened, version, now);
                }
            }
        }
        partial.drain(..complete);
    }
    Ok(received)
}

/// Records `version` as received `at`; the first one tells the opener the
/// stream is open.
fn record(received: &mut Received, opened: &Opened, version: u64, at: Instant) {
    if received.is_empty() {
        let _ = opened.send(());
    }
    received.push((version, at));
}

/// Resolves once the watched game's last version is known and received.
async fn reached(last: &tokio::sync::watch::Receiver<u64>, received: &Received) {
    let seen = received.last().map_or(0, |&(v, _)| v);
    let mut last = last.clone();
    let _ = last.wait_for(|&l| l != u64::MAX && seen >= l).await;
}

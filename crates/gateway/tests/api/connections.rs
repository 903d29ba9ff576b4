//! The connection protections: sockets that never send a request, or
//! never finish one, do not keep other clients out, while an idle
//! keep-alive connection lasts the idle timeout.

use std::time::Duration;

use hyper::{Method, StatusCode};
use skit_gateway::LimitsConfig;
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::TcpStream,
};

use crate::helpers::{TestApp, spawn_limited};

/// `count` connections that send nothing.
async fn idle_sockets(app: &TestApp, count: usize) -> Vec<TcpStream> {
    let mut sockets = Vec::with_capacity(count);
    for _ in 0..count {
        sockets.push(TcpStream::connect(app.addr).await.unwrap());
    }
    sockets
}

/// Whether the server closed `socket` (end of stream, a reset, or an
/// answer such as 408 before the close), waiting at most `within`.
async fn closed_by_server(socket: &mut TcpStream, within: Duration) -> bool {
    let mut rest = Vec::new();
    tokio::time::timeout(within, socket.read_to_end(&mut rest))
        .await
        .is_ok()
}

#[tokio::test]
async fn idle_sockets_past_the_old_file_limit_do_not_stop_a_request() {
    let app = spawn_limited(&LimitsConfig::default()).await;

    let _idle = idle_sockets(&app, 1500).await;
    let answer = app.call(Method::GET, "/v1/accounts/me", None).await;

    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
}

#[tokio::test]
async fn at_the_caps_silent_sockets_make_room_for_a_new_client() {
    let limits = LimitsConfig {
        max_connections: 300,
        max_connections_per_ip: 100,
        ..LimitsConfig::default()
    };
    let app = spawn_limited(&limits).await;

    let mut idle = idle_sockets(&app, 1500).await;
    let answer = app.call(Method::GET, "/v1/accounts/me", None).await;

    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    // The oldest were closed to make room.
    let mut closed = 0;
    for socket in idle.iter_mut().take(100) {
        closed += usize::from(closed_by_server(socket, Duration::from_secs(10)).await);
    }
    assert_eq!(closed, 100);
}

#[tokio::test]
async fn half_sent_requests_are_dropped_and_others_answered() {
    let limits = LimitsConfig {
        header_read_timeout_ms: 200,
        ..LimitsConfig::default()
    };
    let app = spawn_limited(&limits).await;
    let mut slow = idle_sockets(&app, 50).await;
    for socket in &mut slow {
        let partial = b"GET /v1/accounts/me HTTP/1.1\r\nHost: skit\r\nX-Slow: ";
        socket.write_all(partial).await.unwrap();
    }

    let answer = app.call(Method::GET, "/v1/accounts/me", None).await;
    let mut closed = 0;
    for socket in &mut slow {
        closed += usize::from(closed_by_server(socket, Duration::from_secs(30)).await);
    }

    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    assert_eq!(closed, slow.len(), "half-sent requests were kept open");
}

#[tokio::test]
async fn a_connection_left_idle_after_its_calls_is_closed() {
    let limits = LimitsConfig {
        idle_timeout_ms: 200,
        ..LimitsConfig::default()
    };
    let app = spawn_limited(&limits).await;
    let mut socket = TcpStream::connect(app.addr).await.unwrap();
    let request = "GET /metrics HTTP/1.1\r\nHost: skit\r\n\r\n";
    socket.write_all(request.as_bytes()).await.unwrap();

    let mut answer = Vec::new();
    let ended = tokio::time::timeout(Duration::from_secs(30), socket.read_to_end(&mut answer))
        .await
        .is_ok();

    assert!(ended, "the idle connection was kept open");
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
}

/// Reads one answer off `socket`: its head, and as many body bytes as its
/// content-length says; what came before the server closed it, if it did.
async fn one_answer(socket: &mut TcpStream) -> String {
    let mut bytes = Vec::new();
    let mut chunk = [0u8; 4096];
    loop {
        let text = String::from_utf8_lossy(&bytes).into_owned();
        if let Some(end) = text.find("\r\n\r\n") {
            let length = text[..end].lines().find_map(|line| {
                let line = line.to_ascii_lowercase();
                let value = line.strip_prefix("content-length:")?;
                value.trim().parse::<usize>().ok()
            });
            if bytes.len() >= end + 4 + length.unwrap_or(0) {
                return text;
            }
        }
        let read = tokio::time::timeout(Duration::from_secs(10), socket.read(&mut chunk)).await;
        match read.expect("an answer in time") {
            Ok(0) | Err(_) => return text,
            Ok(n) => bytes.extend_from_slice(&chunk[..n]),
        }
    }
}

#[tokio::test]
async fn an_idle_keep_alive_connection_outlasts_the_header_timeout() {
    let limits = LimitsConfig {
        header_read_timeout_ms: 300,
        idle_timeout_ms: 10_000,
        ..LimitsConfig::default()
    };
    let app = spawn_limited(&limits).await;
    let mut socket = TcpStream::connect(app.addr).await.unwrap();
    let request = b"GET /v1/accounts/me HTTP/1.1\r\nHost: skit\r\n\r\n";
    socket.write_all(request).await.unwrap();
    let first = one_answer(&mut socket).await;

    // Idle for five header timeouts, well within the idle timeout.
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    let resent = socket.write_all(request).await;
    let second = one_answer(&mut socket).await;
    // A head begun on the kept-alive connection must still arrive in time.
    let partial = b"GET /v1/accounts/me HTTP/1.1\r\nHost: skit\r\nX-Slow: ";
    socket.write_all(partial).await.unwrap();
    let slow_closed = closed_by_server(&mut socket, Duration::from_secs(5)).await;

    let status = |answer: &str| answer.lines().next().unwrap_or_default().to_owned();
    assert!(first.starts_with("HTTP/1.1 4"), "{first}");
    assert!(resent.is_ok(), "closed while idle: {resent:?}");
    assert_eq!(
        status(&second),
        status(&first),
        "answered after idling: {second:?}"
    );
    assert!(
        slow_closed,
        "a half-sent head on a kept-alive connection was kept open"
    );
}

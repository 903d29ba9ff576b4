//! A database that cannot be reached is [`Error::Unavailable`], within the
//! pool's acquire timeout: a caller can tell an outage from a failed
//! statement, and is not kept waiting.

#![allow(clippy::unwrap_used)]

use std::time::{Duration, Instant};

use skit_store::{Error, PoolSettings, Store};

#[tokio::test]
async fn a_server_that_refuses_connections_is_unavailable_within_the_timeout() {
    // A port that was free a moment ago: nothing listens there.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    drop(listener);
    let url = format!("postgres://postgres@127.0.0.1:{port}/nowhere");
    let settings = PoolSettings {
        acquire_timeout: Duration::from_millis(300),
        startup_wait: Duration::ZERO,
        ..PoolSettings::default()
    };
    let started = Instant::now();

    let err = Store::connect_with(&url, settings).await.unwrap_err();

    assert!(matches!(err, Error::Unavailable(_)), "{err:?}");
    assert_eq!(err.to_string(), "the database is unavailable");
    assert!(started.elapsed() < Duration::from_secs(10), "{err:?}");
}

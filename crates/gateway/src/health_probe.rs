//! Health clients for tests (feature `testing`): what a readiness probe
//! sees, over gRPC and over HTTP.

use std::time::Duration;

use tonic::transport::Channel;
use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;

/// The status each of `names` reports at `url` (`http://host:port`), in
/// order. Retries the connection for a few seconds while the server starts.
///
/// # Panics
/// If the server cannot be reached or a check fails.
pub async fn health_of(url: &str, names: &[&str]) -> Vec<ServingStatus> {
    statuses(&mut connect(url).await, names).await
}

/// Polls until every one of `names` reports `want` and `GET /readyz`
/// answers as it should then (200 for SERVING, 503 otherwise).
///
/// # Panics
/// After 20 s, saying what each name and `/readyz` reported last.
pub async fn wait_for_health(url: &str, names: &[&str], want: ServingStatus) {
    let mut client = connect(url).await;
    let http = reqwest::Client::new();
    let ready_status = if want == ServingStatus::Serving {
        200
    } else {
        503
    };
    let (mut last, mut ready) = (Vec::new(), 0);
    for _ in 0..1000 {
        last = statuses(&mut client, names).await;
        ready = http_status(&http, url, "/readyz").await;
        if last.iter().all(|&s| s == want) && ready == ready_status {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let seen: Vec<_> = names.iter().zip(&last).collect();
    panic!("health never reported {want:?} for every name; last: {seen:?}, /readyz {ready}");
}

/// The HTTP status of `GET {url}{path}`, e.g. `/livez`.
///
/// # Panics
/// If the server cannot be reached.
pub async fn http_status_of(url: &str, path: &str) -> u16 {
    http_status(&reqwest::Client::new(), url, path).await
}

async fn http_status(client: &reqwest::Client, url: &str, path: &str) -> u16 {
    client
        .get(format!("{url}{path}"))
        .send()
        .await
        .unwrap_or_else(|e| panic!("GET {path}: {e}"))
        .status()
        .as_u16()
}

async fn connect(url: &str) -> HealthClient<Channel> {
    let endpoint = Channel::from_shared(url.to_owned()).expect("a valid URL");
    for _ in 0..250 {
        if let Ok(channel) = endpoint.connect().await {
            return HealthClient::new(channel);
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("cannot reach {url}");
}

async fn statuses(client: &mut HealthClient<Channel>, names: &[&str]) -> Vec<ServingStatus> {
    let mut statuses = Vec::new();
    for name in names {
        let request = HealthCheckRequest {
            service: (*name).to_owned(),
        };
        let response = client
            .check(request)
            .await
            .unwrap_or_else(|e| panic!("health check of {name:?}: {e}"));
        statuses.push(response.into_inner().status());
    }
    statuses
}

//! Prometheus metrics: the recorder, the `/metrics` route and a layer
//! counting requests and timing them by route and status. Services record
//! their own figures through the `metrics` facade (so they need no handle)
//! and describe them once the recorder is installed.
//!
//! The recorder is process-wide by the `metrics` crate's design; it is
//! installed once, on first use, and every router shares it.

use std::{
    pin::Pin,
    sync::OnceLock,
    task::{Context, Poll},
    time::Instant,
};

use axum::{
    Router,
    extract::MatchedPath,
    http::{Request, Response, StatusCode, header},
    response::IntoResponse,
    routing::get,
};
use metrics::{counter, describe_counter, describe_gauge, describe_histogram, histogram};
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use tower::{Layer, Service};

const REQUESTS: &str = "http_requests_total";
const DURATION: &str = "http_request_duration_seconds";

/// Latency buckets from a cache hit to a long poll's cap.
const BUCKETS: &[f64] = &[
    0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0,
];

static HANDLE: OnceLock<Result<PrometheusHandle, String>> = OnceLock::new();

/// Installs the Prometheus recorder if no router has yet, and returns the
/// handle that renders it. Fails if another recorder was installed first.
pub fn install() -> Result<PrometheusHandle, String> {
    HANDLE
        .get_or_init(|| {
            let handle = PrometheusBuilder::new()
                .set_buckets_for_metric(Matcher::Full(DURATION.into()), BUCKETS)
                .map_err(|e| e.to_string())?
                .install_recorder()
                .map_err(|e| e.to_string())?;
            describe();
            Ok(handle)
        })
        .clone()
}

fn describe() {
    describe_counter!(
        REQUESTS,
        "HTTP requests answered, by method, route and status."
    );
    describe_histogram!(DURATION, "Time to answer an HTTP request, in seconds.");
    describe_counter!(
        crate::limits::REFUSALS,
        "Calls refused by a limit, by class and limit (rate or streams)."
    );
    describe_gauge!(crate::server::OPEN, "Open client connections.");
    describe_counter!(
        crate::server::CLOSED,
        "Connections the server closed or refused, by reason (idle, evicted, refused)."
    );
}

/// `GET /metrics` in the Prometheus text format.
pub fn routes() -> Router {
    Router::new().route("/metrics", get(render))
}

async fn render() -> axum::response::Response {
    match install() {
        Ok(handle) => {
            handle.run_upkeep();
            let content_type = "text/plain; version=0.0.4; charset=utf-8";
            ([(header::CONTENT_TYPE, content_type)], handle.render()).into_response()
        }
        Err(problem) => (StatusCode::SERVICE_UNAVAILABLE, problem).into_response(),
    }
}

/// A layer recording `http_requests_total` and
/// `http_request_duration_seconds` labelled by method, route template (not
/// the raw path, so ids do not explode the label set) and status. For a
/// stream the time is until the response starts.
pub fn layer() -> MetricsLayer {
    MetricsLayer
}

/// See [`layer`].
#[derive(Debug, Clone, Copy, Default)]
pub struct MetricsLayer;

impl<S> Layer<S> for MetricsLayer {
    type Service = MetricsService<S>;

    fn layer(&self, inner: S) -> Self::Service {
        MetricsService { inner }
    }
}

/// The service [`MetricsLayer`] wraps around another.
#[derive(Debug, Clone)]
pub struct MetricsService<S> {
    inner: S,
}

impl<S, ReqBody, ResBody> Service<Request<ReqBody>> for MetricsService<S>
where
    S: Service<Request<ReqBody>, Response = Response<ResBody>>,
    S::Future: Send + 'static,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = Pin<Box<dyn Future<Output = Result<S::Response, S::Error>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request<ReqBody>) -> Self::Future {
        let start = Instant::now();
        let method = request.method().as_str().to_owned();
        let route = request
            .extensions()
            .get::<MatchedPath>()
            .map_or_else(|| "unmatched".to_owned(), |p| p.as_str().to_owned());
        let answer = self.inner.call(request);
        Box::pin(async move {
            let result = answer.await;
            let status = match &result {
                Ok(response) => response.status().as_u16().to_string(),
                Err(_) => "error".to_owned(),
            };
            let labels = [("method", method), ("route", route), ("status", status)];
            counter!(REQUESTS, &labels).increment(1);
            histogram!(DURATION, &labels).record(start.elapsed().as_secs_f64());
            result
        })
    }
}

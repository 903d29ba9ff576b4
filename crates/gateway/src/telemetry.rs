//! Logs and traces for a service: `tracing` to stdout (filtered by
//! `RUST_LOG`, formatted by `LOG_FORMAT` = `json`, `pretty` or compact), and
//! when `OTEL_EXPORTER_OTLP_ENDPOINT` is set, spans exported over OTLP/gRPC
//! (tonic 0.14, the same as the API's) as well. Call [`init`] once from `main`, inside the tokio
//! runtime (the exporter's channel needs it), and keep the guard alive.

use opentelemetry::trace::TracerProvider as _;
use opentelemetry_otlp::{ExporterBuildError, SpanExporter, WithExportConfig as _};
use opentelemetry_sdk::{Resource, propagation::TraceContextPropagator, trace::SdkTracerProvider};
use tracing_subscriber::{
    EnvFilter, Layer as _, layer::SubscriberExt as _, util::SubscriberInitExt as _,
    util::TryInitError,
};

/// Why telemetry could not start.
#[derive(Debug, thiserror::Error)]
pub enum TelemetryError {
    #[error("cannot build the OTLP exporter: {0}")]
    Exporter(#[from] ExporterBuildError),
    #[error("cannot install the tracing subscriber: {0}")]
    Subscriber(#[from] TryInitError),
}

/// Flushes and stops the span exporter when dropped, so the spans of a
/// shutting-down service are not lost.
#[derive(Debug)]
#[must_use = "dropping the guard stops span export"]
pub struct TelemetryGuard {
    provider: Option<SdkTracerProvider>,
}

impl Drop for TelemetryGuard {
    fn drop(&mut self) {
        if let Some(provider) = self.provider.take() {
            // Nowhere left to report a failure: the subscriber may be gone.
            let _ = provider.shutdown();
        }
    }
}

/// How logs look and where spans go.
#[derive(Debug, Clone, Default)]
pub struct TelemetryConfig {
    pub format: LogFormat,
    /// An OTLP/gRPC collector, e.g. `http://localhost:4317`; `None`: no
    /// span export.
    pub otlp_endpoint: Option<String>,
}

/// The stdout log format.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum LogFormat {
    /// One JSON object per event, for log collectors.
    Json,
    /// Multi-line, for a developer's terminal.
    Pretty,
    #[default]
    Compact,
}

impl TelemetryConfig {
    /// From `LOG_FORMAT` (`json`, `pretty`, else compact) and
    /// `OTEL_EXPORTER_OTLP_ENDPOINT`.
    pub fn from_env() -> Self {
        let format = match std::env::var("LOG_FORMAT").as_deref() {
            Ok("json") => LogFormat::Json,
            Ok("pretty") => LogFormat::Pretty,
            _ => LogFormat::Compact,
        };
        let otlp_endpoint = std::env::var("OTEL_EXPORTER_OTLP_ENDPOINT")
            .ok()
            .filter(|endpoint| !endpoint.is_empty());
        Self {
            format,
            otlp_endpoint,
        }
    }
}

/// Sets up the global subscriber for `service_name` from the environment
/// (see [`TelemetryConfig::from_env`]; `RUST_LOG` filters, default `info`).
pub fn init(service_name: &str) -> Result<TelemetryGuard, TelemetryError> {
    init_with(service_name, &TelemetryConfig::from_env())
}

/// [`init`] with an explicit configuration.
pub fn init_with(
    service_name: &str,
    config: &TelemetryConfig,
) -> Result<TelemetryGuard, TelemetryError> {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let fmt = match config.format {
        LogFormat::Json => tracing_subscriber::fmt::layer().json().boxed(),
        LogFormat::Pretty => tracing_subscriber::fmt::layer().pretty().boxed(),
        LogFormat::Compact => tracing_subscriber::fmt::layer().boxed(),
    };
    let provider = match &config.otlp_endpoint {
        Some(endpoint) => Some(tracer_provider(service_name, endpoint)?),
        None => None,
    };
    let otel = provider.as_ref().map(|provider| {
        tracing_opentelemetry::layer().with_tracer(provider.tracer(service_name.to_owned()))
    });
    tracing_subscriber::registry()
        .with(fmt)
        .with(otel)
        .with(filter)
        .try_init()?;
    Ok(TelemetryGuard { provider })
}

/// A batching provider exporting to `endpoint` (the other
/// `OTEL_EXPORTER_OTLP_*` settings are read by the exporter itself).
fn tracer_provider(
    service_name: &str,
    endpoint: &str,
) -> Result<SdkTracerProvider, ExporterBuildError> {
    let exporter = SpanExporter::builder()
        .with_tonic()
        .with_endpoint(endpoint)
        .with_timeout(std::time::Duration::from_secs(5))
        .build()?;
    let provider = SdkTracerProvider::builder()
        .with_batch_exporter(exporter)
        .with_resource(
            Resource::builder()
                .with_service_name(service_name.to_owned())
                .build(),
        )
        .build();
    opentelemetry::global::set_text_map_propagator(TraceContextPropagator::new());
    opentelemetry::global::set_tracer_provider(provider.clone());
    Ok(provider)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    // One test: the subscriber is process-wide, so a second init must fail.
    #[tokio::test]
    async fn exports_to_a_collector_and_refuses_a_second_init() {
        let config = TelemetryConfig {
            format: LogFormat::Json,
            // Nothing listens there: export fails quietly, nothing blocks.
            otlp_endpoint: Some("http://127.0.0.1:9".into()),
        };

        let guard = init_with("skit-gateway-test", &config).unwrap();
        tracing::info_span!("a span").in_scope(|| tracing::info!("inside"));
        let again = init_with("skit-gateway-test", &TelemetryConfig::default());

        assert!(matches!(again, Err(TelemetryError::Subscriber(_))));
        assert!(guard.provider.is_some());
        drop(guard);
    }
}

//! Logs and traces for a service: `tracing` to stdout (filtered by
//! `RUST_LOG`, formatted by `LOG_FORMAT` = `json`, `pretty` or compact), and
//! when `OTEL_EXPORTER_OTLP_ENDPOINT` is set, spans exported over OTLP/gRPC
//! (tonic) as well. Call [`init`] once from `main`, inside the tokio
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

/// Sets up the global subscriber for `service_name`.
pub fn init(service_name: &str) -> Result<TelemetryGuard, TelemetryError> {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let fmt = match std::env::var("LOG_FORMAT").as_deref() {
        Ok("json") => tracing_subscriber::fmt::layer().json().boxed(),
        Ok("pretty") => tracing_subscriber::fmt::layer().pretty().boxed(),
        _ => tracing_subscriber::fmt::layer().boxed(),
    };
    let provider = match std::env::var_os("OTEL_EXPORTER_OTLP_ENDPOINT") {
        Some(_) => Some(tracer_provider(service_name)?),
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

/// A batching provider exporting to the endpoint in
/// `OTEL_EXPORTER_OTLP_ENDPOINT` (read by the exporter itself, with the
/// other `OTEL_EXPORTER_OTLP_*` settings).
fn tracer_provider(service_name: &str) -> Result<SdkTracerProvider, ExporterBuildError> {
    let exporter = SpanExporter::builder()
        .with_tonic()
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

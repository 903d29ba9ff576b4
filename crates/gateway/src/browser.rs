//! What browsers are told: which other origins' pages may call the API
//! (CORS, exact origins from the configuration; none by default) and the
//! standard security headers on every answer.

use std::time::Duration;

use axum::{
    Router,
    http::{HeaderName, HeaderValue, Method, Uri, header},
};
use tower_http::{
    cors::{AllowOrigin, CorsLayer},
    set_header::SetResponseHeaderLayer,
};

/// The origins whose pages may call the API from a browser, each exactly
/// as a browser sends it in `Origin` (`scheme://host[:port]`). Same-origin
/// pages and non-browser clients need none.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CorsOrigins(Vec<HeaderValue>);

/// A configured origin that is not one; names the variable that set it.
#[derive(Debug, thiserror::Error)]
#[error(
    "{variable}: {origin:?} is not an origin: {reason} (expected scheme://host[:port], comma-separated)"
)]
pub struct BadOrigin {
    pub variable: String,
    pub origin: String,
    pub reason: &'static str,
}

impl CorsOrigins {
    /// No origin but the API's own.
    pub fn none() -> Self {
        Self::default()
    }

    /// The comma-separated `list` that `variable` set; blank entries are
    /// skipped, so unset and empty both allow none.
    pub fn parse(variable: &str, list: &str) -> Result<Self, BadOrigin> {
        list.split(',')
            .map(str::trim)
            .filter(|entry| !entry.is_empty())
            .map(|entry| {
                origin(entry).map_err(|reason| BadOrigin {
                    variable: variable.to_owned(),
                    origin: entry.to_owned(),
                    reason,
                })
            })
            .collect::<Result<_, _>>()
            .map(CorsOrigins)
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// `text` as an `Origin` value, or why it cannot be one.
fn origin(text: &str) -> Result<HeaderValue, &'static str> {
    let uri: Uri = text.parse().map_err(|_| "not a URL")?;
    let Some(scheme) = uri.scheme() else {
        return Err("no scheme");
    };
    let Some(authority) = uri.authority() else {
        return Err("no host");
    };
    if authority.as_str().contains('@') {
        return Err("a user name is never part of an origin");
    }
    if text != format!("{scheme}://{authority}") {
        return Err("a path, even a trailing slash, is never part of an origin");
    }
    if text.bytes().any(|b| b.is_ascii_uppercase()) {
        return Err("browsers send origins in lower case");
    }
    HeaderValue::from_str(text).map_err(|_| "not a header value")
}

/// CORS for browsers calling gRPC-Web or REST from one of `origins`: the
/// headers gRPC-Web sends, and the gRPC status headers exposed so the
/// browser client can read errors. Any other origin gets no CORS headers,
/// so its pages cannot read the answers.
fn cors(origins: &CorsOrigins) -> CorsLayer {
    const ALLOWED: &[&str] = &[
        "authorization",
        "content-type",
        "x-grpc-web",
        "x-user-agent",
        "grpc-timeout",
        "last-event-id",
        "traceparent",
        "tracestate",
        "x-request-id",
    ];
    const EXPOSED: &[&str] = &["grpc-status", "grpc-message", "grpc-status-details-bin"];
    let names = |names: &[&'static str]| -> Vec<HeaderName> {
        names.iter().map(|h| HeaderName::from_static(h)).collect()
    };
    CorsLayer::new()
        .allow_origin(AllowOrigin::list(origins.0.iter().cloned()))
        .allow_methods([Method::GET, Method::POST, Method::OPTIONS])
        .allow_headers(names(ALLOWED))
        .expose_headers(names(EXPOSED))
        .max_age(Duration::from_secs(24 * 60 * 60))
}

/// The security headers every answer carries unless its handler set its
/// own: no sniffing, no referrer, no framing, a policy that loads nothing
/// (the API serves no HTML), and no caching (answers carry tokens and
/// per-player views).
const SECURITY_HEADERS: [(HeaderName, &str); 5] = [
    (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
    (header::REFERRER_POLICY, "no-referrer"),
    (header::X_FRAME_OPTIONS, "DENY"),
    (
        header::CONTENT_SECURITY_POLICY,
        "default-src 'none'; frame-ancestors 'none'",
    ),
    (header::CACHE_CONTROL, "no-store"),
];

/// `app` with CORS for `origins` and the security headers, on every
/// answer including preflights and errors.
pub(crate) fn guard(app: Router, origins: &CorsOrigins) -> Router {
    let mut app = app.layer(cors(origins));
    for (name, value) in SECURITY_HEADERS {
        app = app.layer(SetResponseHeaderLayer::if_not_present(
            name,
            HeaderValue::from_static(value),
        ));
    }
    app
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn exact_origins_are_read_and_blanks_skipped() {
        let origins =
            CorsOrigins::parse("X", " https://cards.example, ,http://localhost:5173,").unwrap();
        assert_eq!(
            origins.0,
            ["https://cards.example", "http://localhost:5173"]
        );
        assert!(CorsOrigins::parse("X", "").unwrap().is_empty());
    }

    #[test]
    fn what_is_not_an_origin_is_refused_naming_the_variable() {
        for bad in [
            "cards.example",
            "*",
            "null",
            "https://cards.example/",
            "https://cards.example/app",
            "https://user@cards.example",
            "https://Cards.example",
        ] {
            let error = CorsOrigins::parse("SKIT_CORS_ORIGINS", bad)
                .expect_err(bad)
                .to_string();
            assert!(error.starts_with("SKIT_CORS_ORIGINS: "), "{error}");
            assert!(error.contains(bad), "{error}");
        }
    }
}

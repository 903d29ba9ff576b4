//! The limits in front of every call, the same for gRPC, gRPC-Web and
//! REST: a rate limit per class of call ([`class`]) and per client
//! (credential, or address for anonymous calls, sign-ups and logins), and
//! caps on the streams and long polls one credential or address holds
//! open. A refused call never reaches the service: gRPC clients get
//! RESOURCE_EXHAUSTED with a `RetryInfo`, REST clients 429 with
//! `Retry-After`, both with reason `rate_limited` (or `too_many_streams`)
//! and the class in the metadata. Exempt credentials (the operator's) are
//! never limited. The connection protections are [`crate::serve_with`]'s.

pub mod class;
pub mod client;
mod config;
mod proxies;
mod rate;
mod streams;

use std::sync::Arc;

use axum::{
    Router,
    extract::{Request, State},
    http::{HeaderValue, header},
    middleware::{self, Next},
    response::{IntoResponse, Response},
};
use skit_api::{ApiError, ErrorCode};

use crate::{error::RestError, held_body::HeldBody};
use client::{Key, PeerAddr};
pub use config::{BadLimit, Connections, LimitsConfig};
pub use proxies::TrustedProxies;
use rate::RateLimits;
use streams::StreamCaps;

/// The counter of refused calls, by class and by which limit refused.
pub const REFUSALS: &str = "skit_limit_refusals_total";

/// The limits a server applies, built from its configuration.
#[derive(Debug)]
pub struct Limits {
    enabled: bool,
    rates: Arc<RateLimits>,
    streams: Arc<StreamCaps>,
    trusted_proxies: TrustedProxies,
    connections: Connections,
    exempt: Vec<Key>,
}

impl Limits {
    /// The limits `config` sets; calls bearing one of `exempt_tokens` (the
    /// operator's) are never limited. Starts a task (in the current Tokio
    /// runtime) that forgets idle clients.
    pub fn new(config: &LimitsConfig, exempt_tokens: &[&str]) -> Result<Arc<Self>, BadLimit> {
        let checked = config.check()?;
        Ok(Arc::new(Self {
            enabled: checked.enabled,
            rates: RateLimits::new(&checked.rates),
            streams: StreamCaps::new(
                checked.max_streams_per_credential,
                checked.max_streams_per_ip,
            ),
            trusted_proxies: checked.trusted_proxies,
            connections: checked.connections,
            exempt: exempt_tokens
                .iter()
                .map(|token| client::credential_of_token(token))
                .collect(),
        }))
    }

    /// The connection protections, for [`crate::serve_with`].
    pub fn connections(&self) -> &Connections {
        &self.connections
    }

    /// `app` with every call checked against the limits first.
    pub fn apply(self: &Arc<Self>, app: Router) -> Router {
        app.layer(middleware::from_fn_with_state(self.clone(), check))
    }
}

async fn check(State(limits): State<Arc<Limits>>, request: Request, next: Next) -> Response {
    if !limits.enabled {
        return next.run(request).await;
    }
    let content_type = request.headers().get(header::CONTENT_TYPE).cloned();
    let grpc = content_type
        .as_ref()
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/grpc"));
    let Some(call) = class::of_request(request.method(), request.uri().path(), grpc) else {
        return next.run(request).await;
    };
    let credential = client::credential(request.headers());
    if credential.is_some_and(|key| limits.exempt.contains(&key)) {
        return next.run(request).await;
    }
    let address = request.extensions().get::<PeerAddr>().map(|peer| {
        Key::Address(client::address(
            peer.0.ip(),
            request.headers(),
            &limits.trusted_proxies,
        ))
    });
    let counted = match call.class.per_address() {
        true => address,
        false => credential.or(address),
    };
    if let Some(key) = counted
        && let Err(wait) = limits.rates.check(call.class, &key, call.cost)
    {
        refused(call.class, "rate");
        let error = ApiError::rate_limited(call.class.name(), wait);
        return refusal(error, grpc.then_some(content_type).flatten());
    }
    if !call.holds {
        return next.run(request).await;
    }
    let held = match limits
        .streams
        .hold(address.into_iter().chain(credential).collect())
    {
        Ok(held) => held,
        Err(full) => {
            refused(call.class, "streams");
            let error = ApiError::new(
                ErrorCode::ResourceExhausted,
                "too_many_streams",
                format!(
                    "at most {} streams and long polls may be open per {}; close one first",
                    full.limit, full.scope
                ),
            )
            .with_metadata("class", call.class.name())
            .with_metadata("scope", full.scope)
            .with_metadata("limit", full.limit);
            return refusal(error, grpc.then_some(content_type).flatten());
        }
    };
    next.run(request)
        .await
        .map(|body| HeldBody::wrap(body, held))
}

fn refused(class: class::Class, limit: &'static str) {
    metrics::counter!(REFUSALS, "class" => class.name(), "limit" => limit).increment(1);
}

/// `error` as a gRPC (or gRPC-Web, in the request's `grpc_content_type`)
/// status, or as REST's JSON error.
fn refusal(error: ApiError, grpc_content_type: Option<HeaderValue>) -> Response {
    let Some(content_type) = grpc_content_type else {
        return RestError::from(error).into_response();
    };
    let mut response = tonic::Status::from(error).into_http::<axum::body::Body>();
    // A trailers-only answer: gRPC-Web clients read the status from these
    // headers too, in the content type they asked for.
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, content_type);
    response
}

//! The limits' settings, as a service's typed configuration carries them
//! (flattened into it, so each is one environment variable:
//! `SKIT_LIMIT_SIGNUP`, `SKIT_MAX_CONNECTIONS`, ...), and the checked form
//! the gateway runs with. docs/limits.md explains each.

use std::{num::NonZeroU32, time::Duration};

use governor::Quota;
use serde::{Deserialize, Serialize};

use super::class::Class;
use super::proxies::TrustedProxies;

/// Every limit the gateway applies, with its default.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct LimitsConfig {
    /// Rate limits and the cap on open streams (`false` turns both off;
    /// the connection protections stay).
    pub limits: bool,
    /// Sign-ups (CreateGuest, Register, AuthenticateDevice) per client
    /// address: `RATE:BURST`, calls per second and how many may come at
    /// once, or `off`.
    pub limit_signup: String,
    /// Logins (Login, Refresh) per client address.
    pub limit_login: String,
    /// Moves and resignations per credential.
    pub limit_moves: String,
    /// Reads (views, lists, histories, ratings, tickets) per credential.
    pub limit_reads: String,
    /// Creates, joins, enqueues and every other write, per credential.
    pub limit_creates: String,
    /// Opening streams (WatchGame, WatchTicket, over gRPC or SSE) per
    /// credential.
    pub limit_streams: String,
    /// Streams and long polls (GetView, ListGames, GetTicket) one
    /// credential may hold open at once.
    pub max_streams_per_credential: usize,
    /// Streams and long polls one client address may hold open at once.
    pub max_streams_per_ip: usize,
    /// Proxies whose `X-Forwarded-For` is believed: comma-separated IP
    /// addresses or networks (`10.244.0.0/16`). From any other peer the
    /// header is ignored.
    pub trusted_proxies: String,
    /// Open connections at most (lowered to fit the open-files limit).
    pub max_connections: usize,
    /// Open connections from one address at most (trusted proxies
    /// excepted).
    pub max_connections_per_ip: usize,
    /// An HTTP/1 request's headers must arrive within this (ms).
    pub header_read_timeout_ms: u64,
    /// A connection with no call in flight is closed after this (ms).
    pub idle_timeout_ms: u64,
    /// Concurrent calls on one HTTP/2 connection.
    pub http2_max_concurrent_streams: u32,
    /// On shutdown, how long calls in flight may take to finish (ms);
    /// connections still open then are closed.
    pub shutdown_grace_ms: u64,
}

impl Default for LimitsConfig {
    fn default() -> Self {
        Self {
            limits: true,
            limit_signup: "0.5:30".into(),
            limit_login: "1:30".into(),
            limit_moves: "250:1000".into(),
            limit_reads: "400:800".into(),
            limit_creates: "20:100".into(),
            limit_streams: "10:60".into(),
            max_streams_per_credential: 32,
            max_streams_per_ip: 1024,
            trusted_proxies: String::new(),
            max_connections: 10_000,
            max_connections_per_ip: 1_000,
            header_read_timeout_ms: 10_000,
            idle_timeout_ms: 120_000,
            http2_max_concurrent_streams: 256,
            shutdown_grace_ms: 10_000,
        }
    }
}

/// A setting that cannot be used; names its variable's field.
#[derive(Debug, thiserror::Error)]
#[error("{field}: {value:?} {problem}")]
pub struct BadLimit {
    pub field: &'static str,
    pub value: String,
    pub problem: &'static str,
}

/// The settings, checked.
#[derive(Debug, Clone)]
pub(crate) struct Checked {
    pub enabled: bool,
    /// One quota per class, `None` where that class is `off`.
    pub rates: Vec<(Class, Option<Quota>)>,
    pub max_streams_per_credential: usize,
    pub max_streams_per_ip: usize,
    pub trusted_proxies: TrustedProxies,
    pub connections: Connections,
}

/// The connection protections [`crate::serve_with`] applies.
#[derive(Debug, Clone)]
pub struct Connections {
    pub max_connections: usize,
    pub max_connections_per_ip: usize,
    pub header_read_timeout: Duration,
    pub idle_timeout: Duration,
    pub http2_max_concurrent_streams: u32,
    /// Peers exempt from the per-address cap (they speak for many).
    pub trusted_proxies: TrustedProxies,
    /// How long shutting down waits for calls in flight.
    pub shutdown_grace: Duration,
}

impl Default for Connections {
    fn default() -> Self {
        LimitsConfig::default().connections_unchecked()
    }
}

impl LimitsConfig {
    /// Refuses a setting that cannot be used, naming it.
    pub(crate) fn check(&self) -> Result<Checked, BadLimit> {
        let rates = Class::ALL
            .iter()
            .map(|&class| Ok((class, rate(class.field(), self.rate_text(class))?)))
            .collect::<Result<_, BadLimit>>()?;
        let trusted_proxies = proxies(&self.trusted_proxies)?;
        let mut connections = self.connections_unchecked();
        connections.trusted_proxies = trusted_proxies.clone();
        for (field, value) in [
            ("max_connections", self.max_connections),
            ("max_connections_per_ip", self.max_connections_per_ip),
            (
                "max_streams_per_credential",
                self.max_streams_per_credential,
            ),
            ("max_streams_per_ip", self.max_streams_per_ip),
        ] {
            if value == 0 {
                return Err(BadLimit {
                    field,
                    value: value.to_string(),
                    problem: "must be at least 1",
                });
            }
        }
        Ok(Checked {
            enabled: self.limits,
            rates,
            max_streams_per_credential: self.max_streams_per_credential,
            max_streams_per_ip: self.max_streams_per_ip,
            trusted_proxies,
            connections,
        })
    }

    fn connections_unchecked(&self) -> Connections {
        Connections {
            max_connections: self.max_connections.max(1),
            max_connections_per_ip: self.max_connections_per_ip.max(1),
            header_read_timeout: Duration::from_millis(self.header_read_timeout_ms.max(1)),
            idle_timeout: Duration::from_millis(self.idle_timeout_ms.max(1)),
            http2_max_concurrent_streams: self.http2_max_concurrent_streams.max(1),
            trusted_proxies: TrustedProxies::default(),
            shutdown_grace: Duration::from_millis(self.shutdown_grace_ms),
        }
    }

    fn rate_text(&self, class: Class) -> &str {
        match class {
            Class::Signup => &self.limit_signup,
            Class::Login => &self.limit_login,
            Class::Moves => &self.limit_moves,
            Class::Reads => &self.limit_reads,
            Class::Creates => &self.limit_creates,
            Class::Streams => &self.limit_streams,
        }
    }
}

/// `RATE:BURST` (calls per second, a positive decimal; calls at once, a
/// positive integer) as a quota, or `off`.
fn rate(field: &'static str, text: &str) -> Result<Option<Quota>, BadLimit> {
    let bad = |problem| BadLimit {
        field,
        value: text.to_owned(),
        problem,
    };
    let text = text.trim();
    if text.eq_ignore_ascii_case("off") {
        return Ok(None);
    }
    let (per_second, burst) = text
        .split_once(':')
        .ok_or_else(|| bad("is not RATE:BURST (e.g. 0.5:20) or off"))?;
    let per_second: f64 = per_second
        .trim()
        .parse()
        .map_err(|_| bad("has a RATE that is not a number of calls per second"))?;
    if !(per_second.is_finite() && per_second > 0.0) {
        return Err(bad("has a RATE that is not above zero"));
    }
    let burst: u32 = burst
        .trim()
        .parse()
        .map_err(|_| bad("has a BURST that is not a whole number"))?;
    let burst = NonZeroU32::new(burst).ok_or_else(|| bad("has a BURST of zero"))?;
    let period = Duration::from_secs_f64(1.0 / per_second);
    let quota = Quota::with_period(period).ok_or_else(|| bad("has a RATE too high to keep"))?;
    Ok(Some(quota.allow_burst(burst)))
}

fn proxies(list: &str) -> Result<TrustedProxies, BadLimit> {
    TrustedProxies::parse(list).map_err(|entry| BadLimit {
        field: "trusted_proxies",
        value: entry,
        problem: "is not an IP address or network (10.0.0.2, 10.244.0.0/16)",
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn the_defaults_are_usable() {
        let checked = LimitsConfig::default().check().unwrap();
        assert!(checked.enabled);
        assert!(checked.rates.iter().all(|(_, quota)| quota.is_some()));
    }

    #[test]
    fn a_rate_is_per_second_with_a_burst_or_off() {
        let quota = rate("limit_signup", "0.5:20").unwrap().unwrap();
        assert_eq!(quota.burst_size().get(), 20);
        assert_eq!(quota.replenish_interval(), Duration::from_secs(2));
        assert!(rate("limit_signup", " OFF ").unwrap().is_none());
    }

    #[test]
    fn a_bad_setting_is_refused_naming_its_field() {
        for bad in ["20", "x:1", "0:5", "1:0", "1:-3", "-1:4"] {
            let error = rate("limit_moves", bad).expect_err(bad).to_string();
            assert!(error.starts_with("limit_moves: "), "{error}");
        }
        let config = LimitsConfig {
            trusted_proxies: "10.0.0.1, proxy.example".into(),
            ..LimitsConfig::default()
        };
        let error = config.check().expect_err("a host name").to_string();
        assert!(error.contains("trusted_proxies"), "{error}");
        assert!(error.contains("proxy.example"), "{error}");
    }
}

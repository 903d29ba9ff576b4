//! The matchmaker's typed configuration: defaults, overridden by the
//! environment (`DATABASE_URL`, then `SKIT_MM_<FIELD>`, and the shared
//! `SKIT_GAME_URL`, `SKIT_OPERATOR_TOKEN` and `SKIT_CORS_ORIGINS`).

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use figment::Figment;
use figment::providers::{Env, Serialized};
use serde::{Deserialize, Serialize};
use skit_api::Secret;
use skit_gateway::{BadOrigin, CorsOrigins, LimitsConfig};
use skit_store::{DatabaseUrl, PoolSettings};

use crate::forming::Settings;

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Config {
    /// Where tickets are kept: its own SQLite file by default, or Postgres
    /// (shared by several matchmakers).
    pub database_url: DatabaseUrl,
    pub addr: SocketAddr,
    /// The game service's gRPC address.
    pub game_url: String,
    /// An operator token of the game service: games are created, and bot
    /// accounts listed, as the operator. Required.
    pub operator_token: Option<Secret>,
    /// The file the operator token was read from (a mounted secret,
    /// `SKIT_OPERATOR_TOKEN_FILE`): read again while running, so a rotated
    /// token is used without a restart. Unset: the token never changes.
    pub operator_token_file: Option<PathBuf>,
    /// The origins whose browser pages may call the matchmaker
    /// (`SKIT_CORS_ORIGINS`, shared with the game service): comma-separated,
    /// each exactly `scheme://host[:port]`. Unset, no other origin may.
    pub cors_origins: Option<String>,
    /// How often the matching loop runs (it also runs after each enqueue).
    pub match_interval_ms: u64,
    /// How long the oldest ticket at a table waits before bots fill it.
    pub bot_fill_wait_ms: u64,
    /// The rating window of a new ticket (conservative rating points).
    pub rating_window_base: f64,
    /// How much the window widens per second waited.
    pub rating_window_per_second: f64,
    /// The per-move time limit of matchmade games (0: no clock); a seat
    /// whose time runs out gets a bot's move.
    pub move_time_ms: u64,
    /// A planned match not yet created after this long is finished by any
    /// matchmaker (the one that planned it may have crashed).
    pub recover_after_ms: u64,
    /// The longest a GetTicket long poll may wait.
    pub long_poll_cap_ms: u64,
    /// How often a waiting GetTicket or WatchTicket re-reads its ticket, so
    /// a match made by another matchmaker instance is seen.
    pub recheck_ms: u64,
    /// How often the health service checks the database
    /// (`SKIT_MM_HEALTH_CHECK_MS`); while it does not answer, the
    /// matchmaker reports NOT_SERVING.
    pub health_check_ms: u64,
    /// The longest a request waits for a database connection
    /// (`SKIT_MM_DB_ACQUIRE_TIMEOUT_MS`); past it, while the database is
    /// down or overloaded, the request fails with UNAVAILABLE (HTTP 503)
    /// and a retry hint.
    pub db_acquire_timeout_ms: u64,
    /// Pooled Postgres connections (`SKIT_MM_DB_MAX_CONNECTIONS`; 10).
    /// Each instance opens up to this many plus five for notices
    /// (docs/operations.md, "Connections").
    pub db_max_connections: u32,
    /// Tickets an account may enqueue in an hour
    /// (`SKIT_MM_QUOTA_TICKETS_PER_HOUR`; 0: no quota). An account holds
    /// one queued ticket at a time in any case; this bounds how often it
    /// may cancel and queue again. The operator and house bots are exempt.
    pub quota_tickets_per_hour: u64,
    /// Rate limits, stream caps and connection protections
    /// (`SKIT_MM_LIMITS`, `SKIT_MM_LIMIT_<CLASS>`, `SKIT_MM_MAX_CONNECTIONS`,
    /// ..., and the shared `SKIT_TRUSTED_PROXIES`; docs/limits.md).
    #[serde(flatten)]
    pub limits: LimitsConfig,
}

impl Default for Config {
    fn default() -> Self {
        let acquire_timeout = PoolSettings::default().acquire_timeout;
        Self {
            database_url: "sqlite://skitgubbe-matchmaker.db?mode=rwc".into(),
            addr: SocketAddr::from(([127, 0, 0, 1], 50052)),
            game_url: "http://127.0.0.1:50051".into(),
            operator_token: None,
            operator_token_file: None,
            cors_origins: None,
            match_interval_ms: 200,
            bot_fill_wait_ms: 30_000,
            rating_window_base: 5.0,
            rating_window_per_second: 0.5,
            move_time_ms: 60_000,
            recover_after_ms: 10_000,
            long_poll_cap_ms: 60_000,
            recheck_ms: 500,
            health_check_ms: 5000,
            db_acquire_timeout_ms: u64::try_from(acquire_timeout.as_millis()).unwrap_or(u64::MAX),
            db_max_connections: PoolSettings::default().max_connections,
            quota_tickets_per_hour: 60,
            limits: LimitsConfig::default(),
        }
    }
}

impl Config {
    /// The variables [`Config::load`] reads, with their defaults, for `--help`.
    pub fn environment_help() -> String {
        skit_gateway::environment::help(&Config::default(), |field| match field {
            "database_url" => "DATABASE_URL".into(),
            "game_url"
            | "operator_token"
            | "operator_token_file"
            | "cors_origins"
            | "trusted_proxies" => skit_gateway::environment::prefixed("SKIT_", field),
            _ => skit_gateway::environment::prefixed("SKIT_MM_", field),
        })
    }

    /// Defaults, then the environment.
    pub fn load() -> Result<Config, Box<figment::Error>> {
        Figment::from(Serialized::defaults(Config::default()))
            .merge(Env::raw().only(&["DATABASE_URL"]))
            .merge(
                Env::raw()
                    .only(&[
                        "SKIT_GAME_URL",
                        "SKIT_OPERATOR_TOKEN",
                        "SKIT_OPERATOR_TOKEN_FILE",
                        "SKIT_CORS_ORIGINS",
                        "SKIT_TRUSTED_PROXIES",
                    ])
                    .map(|k| k.as_str().trim_start_matches("SKIT_").into()),
            )
            .merge(Env::prefixed("SKIT_MM_"))
            .extract()
            .map_err(Box::new)
    }

    pub fn forming(&self) -> Settings {
        Settings {
            window_base: self.rating_window_base,
            window_per_second: self.rating_window_per_second,
            bot_fill_wait: Duration::from_millis(self.bot_fill_wait_ms),
        }
    }

    /// The origins `cors_origins` lists, or which entry is not one.
    pub fn cors_origins(&self) -> Result<CorsOrigins, BadOrigin> {
        CorsOrigins::parse(
            "SKIT_CORS_ORIGINS",
            self.cors_origins.as_deref().unwrap_or(""),
        )
    }

    pub fn match_interval(&self) -> Duration {
        Duration::from_millis(self.match_interval_ms.max(1))
    }

    pub fn long_poll_cap(&self) -> Duration {
        Duration::from_millis(self.long_poll_cap_ms)
    }

    pub fn recheck(&self) -> Duration {
        Duration::from_millis(self.recheck_ms.max(10))
    }

    pub fn recover_after(&self) -> Duration {
        Duration::from_millis(self.recover_after_ms)
    }

    pub fn health_check(&self) -> Duration {
        Duration::from_millis(self.health_check_ms.max(1))
    }

    /// The store's pool: `db_max_connections` and `db_acquire_timeout_ms`.
    pub fn pool(&self) -> PoolSettings {
        PoolSettings {
            max_connections: self.db_max_connections,
            acquire_timeout: Duration::from_millis(self.db_acquire_timeout_ms),
            ..PoolSettings::default()
        }
    }
}

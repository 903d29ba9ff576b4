//! The league service's configuration, from the environment alone
//! (`SKIT_LEAGUE_*`, with the settings it shares with the other services
//! under their common names).

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use figment::Figment;
use figment::providers::{Env, Serialized};
use serde::{Deserialize, Serialize};
use skit_api::Secret;
use skit_gateway::{BadOrigin, CorsOrigins, LimitsConfig};
use skit_store::{DatabaseUrl, PoolSettings};

/// Every setting, with its default. Environment variables: `DATABASE_URL`;
/// `SKIT_GAME_URL`, `SKIT_OPERATOR_TOKEN`, `SKIT_CORS_ORIGINS` and
/// `SKIT_TRUSTED_PROXIES` as for the matchmaker; the rest `SKIT_LEAGUE_`
/// and the field's name in capitals.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Config {
    /// The tournaments' database (its own, not the game service's).
    pub database_url: DatabaseUrl,
    pub addr: SocketAddr,
    /// The game service's gRPC address.
    pub game_url: String,
    /// The game service's operator token: games are created as the
    /// operator, and only the operator creates and steers tournaments.
    pub operator_token: Option<Secret>,
    /// The file the operator token was read from (a mounted secret,
    /// `SKIT_OPERATOR_TOKEN_FILE`): read again while running, so a rotated
    /// token is used without a restart. Unset: the token never changes.
    pub operator_token_file: Option<PathBuf>,
    pub cors_origins: Option<String>,
    /// How often each live tournament is looked at: games to create,
    /// results to read, rounds to seat.
    pub tick_ms: u64,
    /// How often a WatchTournament stream looks for new events written by
    /// another instance.
    pub watch_poll_ms: u64,
    pub health_check_ms: u64,
    pub db_acquire_timeout_ms: u64,
    /// Pooled Postgres connections (`SKIT_LEAGUE_DB_MAX_CONNECTIONS`; 10).
    /// Each instance opens up to this many plus five for notices
    /// (docs/operations.md, "Connections").
    pub db_max_connections: u32,
    #[serde(flatten)]
    pub limits: LimitsConfig,
}

impl Default for Config {
    fn default() -> Self {
        let acquire_timeout = PoolSettings::default().acquire_timeout;
        Self {
            database_url: "sqlite://skitgubbe-leagues.db?mode=rwc".into(),
            addr: SocketAddr::from(([127, 0, 0, 1], 50053)),
            game_url: "http://127.0.0.1:50051".into(),
            operator_token: None,
            operator_token_file: None,
            cors_origins: None,
            tick_ms: 500,
            watch_poll_ms: 250,
            health_check_ms: 5000,
            db_acquire_timeout_ms: u64::try_from(acquire_timeout.as_millis()).unwrap_or(u64::MAX),
            db_max_connections: PoolSettings::default().max_connections,
            limits: LimitsConfig::default(),
        }
    }
}

impl Config {
    /// `--help`'s list of environment variables and their defaults.
    pub fn environment_help() -> String {
        skit_gateway::environment::help(&Config::default(), |field| match field {
            "database_url" => "DATABASE_URL".into(),
            "game_url"
            | "operator_token"
            | "operator_token_file"
            | "cors_origins"
            | "trusted_proxies" => skit_gateway::environment::prefixed("SKIT_", field),
            _ => skit_gateway::environment::prefixed("SKIT_LEAGUE_", field),
        })
    }

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
            .merge(Env::prefixed("SKIT_LEAGUE_"))
            .extract()
            .map_err(Box::new)
    }

    /// The origins `cors_origins` lists, or which entry is not one.
    pub fn cors_origins(&self) -> Result<CorsOrigins, BadOrigin> {
        CorsOrigins::parse(
            "SKIT_CORS_ORIGINS",
            self.cors_origins.as_deref().unwrap_or(""),
        )
    }

    pub fn tick(&self) -> Duration {
        Duration::from_millis(self.tick_ms.max(1))
    }

    pub fn watch_poll(&self) -> Duration {
        Duration::from_millis(self.watch_poll_ms.max(10))
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

//! The service's typed configuration: defaults, overridden by the
//! environment (`DATABASE_URL`, `SKIT_ADDR`, `SKIT_OPERATOR_TOKEN`, and
//! `SKIT_<FIELD>` for the rest).

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use figment::Figment;
use figment::providers::{Env, Serialized};
use serde::{Deserialize, Serialize};
use skit_api::Secret;
use skit_gateway::{BadOrigin, CorsOrigins, LimitsConfig};
use skit_store::{DatabaseUrl, PoolSettings};

/// How long issued credentials live.
#[derive(Debug, Clone, Copy)]
pub struct Lifetimes {
    pub access: Duration,
    pub refresh: Duration,
    /// The longest a rotated API key keeps working.
    pub api_key_grace_max: Duration,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Config {
    pub database_url: DatabaseUrl,
    pub addr: SocketAddr,
    /// Whoever presents this token may create accounts and act for any seat.
    pub operator_token: Option<Secret>,
    /// How long the previous operator token keeps working after an
    /// instance starts with a new one (`SKIT_OPERATOR_TOKEN_GRACE_MS`; an
    /// hour; 0: refused at once): time to restart every instance and
    /// holder onto the new one (docs/operations.md, "Rotating the
    /// operator token").
    pub operator_token_grace_ms: u64,
    /// The origins whose browser pages may call the API
    /// (`SKIT_CORS_ORIGINS`): comma-separated, each exactly
    /// `scheme://host[:port]`. Unset, no other origin may; same-origin
    /// pages and non-browser clients are unaffected.
    pub cors_origins: Option<String>,
    /// The matchmaker's URL as the web client at `/` reaches it
    /// (`SKIT_WEB_MATCHMAKER_URL`, `http(s)://host[:port]`); its
    /// `SKIT_CORS_ORIGINS` must list this service's origin. Unset, the
    /// page offers tables and invitations only.
    pub web_matchmaker_url: Option<String>,
    /// Where the web client finds the league service (its tournament
    /// pages); unset: none.
    pub web_leagues_url: Option<String>,
    /// Unary calls taking longer are cancelled (long polls are capped below it).
    pub request_timeout_ms: u64,
    /// The longest a long poll may wait.
    pub long_poll_cap_ms: u64,
    /// The largest request message accepted, in bytes.
    pub max_request_bytes: usize,
    /// The shortest per-move limit or initial bank a game may set.
    pub clock_min_limit_ms: u64,
    /// The longest the timeout task sleeps before re-reading the stored
    /// deadlines (it wakes at once for deadlines this instance stores; this
    /// bounds how late it notices one stored by another instance that then
    /// stopped).
    pub clock_recheck_ms: u64,
    /// Batch concurrent appends of different games into shared durable
    /// commits (`SKIT_GROUP_COMMIT`); each move is still acknowledged only
    /// once its own events are committed. Off, each move is a commit of its
    /// own, written concurrently by `Store::solo_writers` committers.
    pub group_commit: bool,
    /// Committer tasks of group commit (`SKIT_GROUP_COMMITTERS`; 0: sized
    /// to the machine, one per four cores on PostgreSQL and at most half
    /// the pool, one on SQLite). While a committer writes a batch the next
    /// one queues, so batches grow with the load; each committer keeps
    /// about one core busy, and more split the queue into smaller batches,
    /// each a statement and commit (docs/performance.md).
    pub group_committers: usize,
    /// Pooled Postgres connections (`SKIT_DB_MAX_CONNECTIONS`; 10). Each
    /// instance opens up to this many plus five for notices
    /// (docs/operations.md, "Connections").
    pub db_max_connections: u32,
    /// The longest a request waits for a database connection
    /// (`SKIT_DB_ACQUIRE_TIMEOUT_MS`); past it, while the database is down
    /// or overloaded, the request fails with UNAVAILABLE (HTTP 503) and a
    /// retry hint.
    pub db_acquire_timeout_ms: u64,
    /// A game nobody asks for or watches this long leaves the instance's
    /// cache (`SKIT_CACHE_IDLE_MS`); its next use replays it from the log.
    pub cache_idle_ms: u64,
    /// How often rating updates that failed (a database error as a game
    /// ended) are tried again (`SKIT_RATINGS_RETRY_MS`).
    pub ratings_retry_ms: u64,
    /// How often the health service checks the database
    /// (`SKIT_HEALTH_CHECK_MS`); while it does not answer, every service
    /// reports NOT_SERVING.
    pub health_check_ms: u64,
    /// Where the identity provider publishes its JWT signing keys
    /// (`SKIT_JWKS_URL`, http or https): with it, bearer JWTs the provider
    /// signed act as accounts of their subjects. Read at start-up and every
    /// `SKIT_JWKS_REFRESH_MS`.
    pub jwks_url: Option<String>,
    /// A JWKS document to trust, beside or instead of `SKIT_JWKS_URL`
    /// (`SKIT_JWKS_FILE`).
    pub jwks_file: Option<PathBuf>,
    /// How often the JWKS is read again (`SKIT_JWKS_REFRESH_MS`).
    pub jwks_refresh_ms: u64,
    /// The `iss` every accepted JWT has (`SKIT_JWT_ISSUER`); needed with a
    /// JWKS.
    pub jwt_issuer: Option<String>,
    /// The `aud` every accepted JWT names (`SKIT_JWT_AUDIENCE`); needed
    /// with a JWKS.
    pub jwt_audience: Option<String>,
    /// The claim a new JWT account is named after (`SKIT_JWT_NAME_CLAIM`).
    pub jwt_name_claim: String,
    /// How long an access token authenticates calls
    /// (`SKIT_ACCESS_TOKEN_TTL_MS`); then Refresh buys the next one.
    pub access_token_ttl_ms: u64,
    /// How long a refresh token may be used, once
    /// (`SKIT_REFRESH_TOKEN_TTL_MS`); each use rotates it.
    pub refresh_token_ttl_ms: u64,
    /// The longest grace period RotateApiKey grants the key it replaces
    /// (`SKIT_API_KEY_GRACE_MAX_MS`).
    pub api_key_grace_max_ms: u64,
    /// How often the revocation feed is read (`SKIT_REVOCATION_POLL_MS`):
    /// a credential revoked on any instance is refused on this one within
    /// about three times this (one second at the default).
    pub revocation_poll_ms: u64,
    /// Games an account may have open (created or seated, not over) at
    /// once (`SKIT_QUOTA_OPEN_GAMES`; 0: no quota). The operator and house
    /// bots are exempt.
    pub quota_open_games: u64,
    /// Games an account may create in an hour (`SKIT_QUOTA_GAMES_PER_HOUR`;
    /// 0: no quota).
    pub quota_games_per_hour: u64,
    /// Games between bots (every seat a bot account) that one owner's bots
    /// may start in 24 hours, a rolling window
    /// (`SKIT_QUOTA_BOT_GAMES_PER_DAY`; 0 or `off`: no cap). Counted for
    /// each owner at the table whoever seats it, the operator's matchmade
    /// and tournament tables included; house bots count for nobody.
    #[serde(deserialize_with = "crate::count_or_off::deserialize")]
    pub quota_bot_games_per_day: u64,
    /// Rate limits, stream caps and connection protections
    /// (`SKIT_LIMITS`, `SKIT_LIMIT_<CLASS>`, `SKIT_MAX_CONNECTIONS`, ...;
    /// docs/limits.md).
    #[serde(flatten)]
    pub limits: LimitsConfig,
}

impl Default for Config {
    fn default() -> Self {
        let pool = PoolSettings::default();
        Self {
            database_url: "sqlite://skitgubbe.db?mode=rwc".into(),
            addr: SocketAddr::from(([127, 0, 0, 1], 50051)),
            operator_token: None,
            operator_token_grace_ms: 60 * 60 * 1000,
            cors_origins: None,
            web_matchmaker_url: None,
            web_leagues_url: None,
            request_timeout_ms: 70_000,
            long_poll_cap_ms: 60_000,
            max_request_bytes: 64 * 1024,
            clock_min_limit_ms: 1000,
            clock_recheck_ms: 5000,
            group_commit: true,
            group_committers: 0,
            db_max_connections: pool.max_connections,
            db_acquire_timeout_ms: u64::try_from(pool.acquire_timeout.as_millis())
                .unwrap_or(u64::MAX),
            cache_idle_ms: 10 * 60 * 1000,
            ratings_retry_ms: 30_000,
            health_check_ms: 5000,
            jwks_url: None,
            jwks_file: None,
            jwks_refresh_ms: 5 * 60 * 1000,
            jwt_issuer: None,
            jwt_audience: None,
            jwt_name_claim: "preferred_username".into(),
            access_token_ttl_ms: 60 * 60 * 1000,
            refresh_token_ttl_ms: 30 * 24 * 60 * 60 * 1000,
            api_key_grace_max_ms: 7 * 24 * 60 * 60 * 1000,
            revocation_poll_ms: 250,
            quota_open_games: 20,
            quota_games_per_hour: 200,
            quota_bot_games_per_day: 1000,
            limits: LimitsConfig::default(),
        }
    }
}

impl Config {
    /// The variables [`Config::load`] reads, with their defaults, for `--help`.
    pub fn environment_help() -> String {
        skit_gateway::environment::help(&Config::default(), |field| match field {
            "database_url" => "DATABASE_URL".into(),
            _ => skit_gateway::environment::prefixed("SKIT_", field),
        })
    }

    /// Defaults, then the environment.
    pub fn load() -> Result<Config, Box<figment::Error>> {
        Figment::from(Serialized::defaults(Config::default()))
            .merge(Env::raw().only(&["DATABASE_URL"]))
            .merge(Env::prefixed("SKIT_"))
            .extract()
            .map_err(Box::new)
    }

    /// Refuses what [`Config::load`] cannot: an operator token too short
    /// to be safe.
    pub fn check(&self) -> Result<(), skit_api::ShortOperatorToken> {
        self.operator_token
            .as_ref()
            .map_or(Ok(()), Secret::check_operator_token)
    }

    /// How long a replaced operator token keeps working.
    pub fn operator_token_grace(&self) -> Duration {
        Duration::from_millis(self.operator_token_grace_ms)
    }

    /// The store's pool, as `db_max_connections` and
    /// `db_acquire_timeout_ms` say.
    pub fn pool(&self) -> PoolSettings {
        PoolSettings {
            max_connections: self.db_max_connections,
            acquire_timeout: Duration::from_millis(self.db_acquire_timeout_ms),
            ..PoolSettings::default()
        }
    }

    /// What the web client is told, or why the URL cannot be called.
    pub fn web(&self) -> Result<skit_web::WebConfig, skit_web::BadMatchmakerUrl> {
        skit_web::WebConfig::parse(
            "SKIT_WEB_MATCHMAKER_URL",
            self.web_matchmaker_url.as_deref(),
        )?
        .with_leagues("SKIT_WEB_LEAGUES_URL", self.web_leagues_url.as_deref())
    }

    /// The origins `cors_origins` lists, or which entry is not one.
    pub fn cors_origins(&self) -> Result<CorsOrigins, BadOrigin> {
        CorsOrigins::parse(
            "SKIT_CORS_ORIGINS",
            self.cors_origins.as_deref().unwrap_or(""),
        )
    }

    pub fn request_timeout(&self) -> Duration {
        Duration::from_millis(self.request_timeout_ms)
    }

    pub fn long_poll_cap(&self) -> Duration {
        Duration::from_millis(self.long_poll_cap_ms)
    }

    pub fn clock_min_limit(&self) -> Duration {
        Duration::from_millis(self.clock_min_limit_ms)
    }

    pub fn clock_recheck(&self) -> Duration {
        Duration::from_millis(self.clock_recheck_ms.max(1))
    }

    pub fn cache_idle(&self) -> Duration {
        Duration::from_millis(self.cache_idle_ms.max(1))
    }

    pub fn ratings_retry(&self) -> Duration {
        Duration::from_millis(self.ratings_retry_ms.max(1))
    }

    pub fn health_check(&self) -> Duration {
        Duration::from_millis(self.health_check_ms.max(1))
    }

    pub fn jwks_refresh(&self) -> Duration {
        Duration::from_millis(self.jwks_refresh_ms.max(1))
    }

    /// The lifetimes of issued credentials.
    pub fn token_lifetimes(&self) -> Lifetimes {
        Lifetimes {
            access: Duration::from_millis(self.access_token_ttl_ms.max(1)),
            refresh: Duration::from_millis(self.refresh_token_ttl_ms.max(1)),
            api_key_grace_max: Duration::from_millis(self.api_key_grace_max_ms),
        }
    }

    pub fn revocation_poll(&self) -> Duration {
        Duration::from_millis(self.revocation_poll_ms.max(1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The start-up log prints the configuration (`?config`).
    #[test]
    fn the_logged_configuration_hides_secrets() {
        let config = Config {
            database_url: "postgres://skit:hunter2@db/skit".into(),
            operator_token: Some(Secret::new("op-token")),
            ..Config::default()
        };
        let logged = format!("{config:?}");
        assert!(!logged.contains("hunter2"), "{logged}");
        assert!(!logged.contains("op-token"), "{logged}");
        assert!(logged.contains("postgres://skit:***@db/skit"), "{logged}");
    }
}

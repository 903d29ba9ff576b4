//! The worker's typed configuration: defaults, overridden by the
//! environment (`SKIT_OPERATOR_TOKEN`, and `SKIT_BOT_<FIELD>` for the rest,
//! e.g. `SKIT_BOT_SERVER`, `SKIT_BOT_MAX_GAMES`), then by the command line.

use std::path::PathBuf;
use std::time::Duration;

use figment::Figment;
use figment::providers::{Env, Serialized};
use serde::{Deserialize, Serialize};
use skit_api::Secret;
use skit_bots::{Budget, Strategy};

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Config {
    /// The game service, `http://host:port`.
    pub server: String,
    /// The bot accounts (JSON); created on the first provisioning.
    pub accounts_file: PathBuf,
    /// Needed only to provision accounts.
    pub operator_token: Option<Secret>,
    /// How long one `ListGames` long poll may wait (the server caps it).
    pub wait_ms: u32,
    /// Turns played at once, over all accounts.
    pub max_games: usize,
    /// The searching strategies' (`search`, `ismcts`) CPU time per
    /// decision, in milliseconds of the deciding thread's CPU time.
    pub decision_ms: u64,
    /// Their most playouts and sampled states per decision.
    pub search_playouts: usize,
    pub search_determinizations: usize,
    /// Retries of a call that failed for a passing reason (`UNAVAILABLE`, ...)
    /// within one turn; the worker itself never gives up.
    pub retries: usize,
    /// The longest wait between two retries.
    pub retry_max_delay_ms: u64,
    /// How long a shutdown waits for turns being played.
    pub shutdown_grace_ms: u64,
    /// Where to answer health probes (`/livez`, `/readyz`), `host:port`;
    /// unset: nowhere.
    pub health_addr: Option<String>,
}

impl Default for Config {
    fn default() -> Config {
        let search = Budget::default();
        Config {
            server: "http://127.0.0.1:50051".into(),
            accounts_file: "bot-accounts.json".into(),
            operator_token: None,
            wait_ms: 30_000,
            max_games: 32,
            decision_ms: search.time.map_or(0, |t| t.as_millis() as u64),
            search_playouts: search.playouts,
            search_determinizations: search.determinizations,
            retries: 8,
            retry_max_delay_ms: 5_000,
            shutdown_grace_ms: 10_000,
            health_addr: None,
        }
    }
}

impl Config {
    /// The variables [`Config::load`] reads, with their defaults, for `--help`.
    pub fn environment_help() -> String {
        skit_gateway::environment::help(&Config::default(), |field| match field {
            "operator_token" => "SKIT_OPERATOR_TOKEN".into(),
            _ => skit_gateway::environment::prefixed("SKIT_BOT_", field),
        })
    }

    /// Defaults, then the environment.
    pub fn load() -> Result<Config, Box<figment::Error>> {
        Figment::from(Serialized::defaults(Config::default()))
            .merge(
                Env::raw()
                    .only(&["SKIT_OPERATOR_TOKEN"])
                    .map(|_| "operator_token".into()),
            )
            .merge(Env::prefixed("SKIT_BOT_"))
            .extract()
            .map_err(Box::new)
    }

    pub fn retry_max_delay(&self) -> Duration {
        Duration::from_millis(self.retry_max_delay_ms)
    }

    pub fn shutdown_grace(&self) -> Duration {
        Duration::from_millis(self.shutdown_grace_ms)
    }

    /// A strategy by name, the searches with this config's budget.
    pub fn strategy(&self, name: &str) -> Option<Box<dyn Strategy>> {
        skit_bots::by_name_with(
            name,
            Budget {
                time: Some(Duration::from_millis(self.decision_ms)),
                playouts: self.search_playouts,
                determinizations: self.search_determinizations,
                ..Budget::default()
            },
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    // figment's Jail fixes the closure's error type.
    #[allow(clippy::result_large_err)]
    fn the_environment_overrides_the_defaults() {
        figment::Jail::expect_with(|jail| {
            jail.set_env("SKIT_OPERATOR_TOKEN", "op");
            jail.set_env("SKIT_BOT_MAX_GAMES", "3");
            jail.set_env("SKIT_BOT_SERVER", "http://example:1");
            let config = Config::load().map_err(|e| e.to_string())?;
            assert_eq!(config.max_games, 3);
            assert_eq!(config.server, "http://example:1");
            assert_eq!(config.operator_token, Some(Secret::new("op")));
            assert_eq!(config.wait_ms, Config::default().wait_ms);
            Ok(())
        });
    }

    #[test]
    fn search_takes_the_configured_budget() {
        let config = Config::default();
        assert_eq!(config.strategy("search").map(|s| s.name()), Some("search"));
        assert!(config.strategy("nonsense").is_none());
        assert_eq!(config.decision_ms, 20);
        assert_eq!(config.strategy("ismcts").map(|s| s.name()), Some("ismcts"));
        // The all-seeing ceiling of the arena is never a house bot.
        assert!(config.strategy("omniscient").is_none());
    }
}

//! The bot worker: plays the turns of many bot accounts in many games at
//! once over the game service's public gRPC API, with the strategies of
//! `skit-bots`.
//!
//! - [`AccountsFile`]: the accounts file (names, tokens, strategies), the
//!   only state the worker keeps.
//! - [`provision`]: creates bot accounts with the operator token.
//! - [`serve_health`]: `/livez` and `/readyz` for probes.
//! - [`run`]: one `ListGames` long poll per account; a task per game and
//!   seat to act (a turn), with a limit on how many run at once.
//!
//! `main.rs` only reads the configuration and the command line, starts
//! telemetry and calls these.

mod accounts;
mod config;
mod health;
mod provision;
mod retry;
mod turn;
mod worker;

pub use accounts::{AccountsError, AccountsFile, BotAccount};
pub use config::Config;
pub use health::{Readiness, serve as serve_health};
pub use provision::{Provision, provision};
pub use worker::run;

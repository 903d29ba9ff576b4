//! The game service's integration tests, one binary: each module starts the
//! real service in this process (`skit_testkit`) on a fresh database and
//! talks to it over the network as a client would. The live-cache test is
//! a binary of its own (`tests/cache.rs`): it reads a process-wide gauge.

mod accounts;
mod actions_agree;
mod admin;
mod admin_credentials;
mod admin_games;
mod admin_instances;
mod admin_password;
mod api;
mod api_keys;
mod bad_input;
mod banned;
mod bot_games;
mod chosen_seed;
mod clients;
mod clocks;
mod conformance;
mod consent;
mod contract;
mod crash;
mod create_idempotent;
mod discovery;
mod divisions;
mod errors;
mod export;
mod forfeits;
mod health;
mod jwt;
mod languages;
mod limits;
mod list_wait;
mod long_views;
mod migrate;
mod my_turns;
mod names;
mod outage;
mod owners;
mod people;
mod ratings;
mod read_your_writes;
mod readme;
mod rest;
mod revocation;
mod seasons;
mod sessions;
mod shutdown;
mod solo_commits;
mod timestamps;
mod worlds;

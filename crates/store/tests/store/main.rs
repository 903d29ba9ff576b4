//! The store's integration tests, one binary. Each contract is written once
//! and run on SQLite and on PostgreSQL, every test on a fresh database of
//! its own (`skit_store::testing`): a backend passes only if it behaves
//! exactly like the other.

mod audit;
mod contract;
mod credentials;
mod divisions;
mod exports;
mod group_commit;
mod helpers;
mod house_bots;
mod people;
mod ratings;
mod tickets;
mod turns;
mod unavailable;

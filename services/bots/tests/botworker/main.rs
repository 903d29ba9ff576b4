//! The bot worker's integration tests, one binary: the worker (and the
//! Python example bot) against the real game service in this process.

mod cli;
mod helpers;
mod provision;
mod python_bot;
mod worker;

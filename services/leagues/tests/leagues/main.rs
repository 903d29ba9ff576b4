//! The league service's integration tests, one binary: the real league
//! service and game service in this process, sharing a fresh database,
//! with bot accounts played by a real bot worker.

mod continuous;
mod duplicate;
mod elimination;
mod helpers;
mod no_shows;
mod peak;
mod requests;
mod restart;
mod swiss;
mod timestamps;
mod validation;

//! The `skit` command's integration tests, one binary: each runs the built
//! `skit` as a person would and reads what it prints.

mod admin;
mod cli;
mod conformance;
mod play;
mod verify;

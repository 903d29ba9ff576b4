//! The `skit` command's integration tests, one binary: each runs the built
//! `skit` as a person would and reads what it prints.

mod admin;
mod arena;
mod cli;
mod conformance;
mod how_to_play;
mod play;
mod verify;

//! The strategies' integration tests, one binary: whole games of every
//! preset, determinization, and that the search reads nothing hidden.

mod budget;
mod common;
mod determinize;
mod hidden;
mod strategies;

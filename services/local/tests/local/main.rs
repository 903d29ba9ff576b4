//! The one-command start's integration tests, one binary: `skitgubbe` run
//! as a person would, reading what it prints, and the Python example bot
//! played against it.

mod cli;
mod python_bot;

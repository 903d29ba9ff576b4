//! The one-command start's integration tests, one binary: `skitgubbe` run
//! as a person would, reading what it prints, and the Python example bot
//! played against it, and the web client played in a real browser.

mod browser;
mod cli;
mod python_bot;

//! The one-command start's integration tests, one binary: `skitgubbe` run
//! as a person would, reading what it prints.

mod cli;

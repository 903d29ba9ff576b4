//! The matchmaker's integration tests, one binary: the real matchmaker and
//! game service in this process (`skit_testkit`), each on a fresh database,
//! with tickets in and games out as clients see them.

mod bad_input;
mod credentials;
mod discovery;
mod durability;
mod errors;
mod health;
mod helpers;
mod limits;
mod matching;
mod outage;
mod resend;
mod rest;
mod tickets;

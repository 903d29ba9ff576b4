//! The gateway over a real TCP port, against a fake of both services.

#![allow(clippy::unwrap_used)]

mod bad_input;
mod browsers;
mod errors;
mod fake;
mod grpc;
mod helpers;
mod metrics;
mod openapi;
mod plain_json;
mod routes;
mod strictness;
mod watch;

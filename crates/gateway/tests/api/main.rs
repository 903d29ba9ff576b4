//! The gateway over a real TCP port, against a fake of both services.

#![allow(clippy::unwrap_used)]

mod admin_routes;
mod bad_input;
mod browsers;
mod connections;
mod errors;
mod fake;
mod fake_admin;
mod grpc;
mod helpers;
mod languages;
mod limits;
mod metrics;
mod ndjson;
mod openapi;
mod plain_json;
mod routes;
mod strictness;
mod watch;

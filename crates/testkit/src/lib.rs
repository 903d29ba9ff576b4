//! For tests only: the real game service and matchmaker, each started in
//! the test's process on port 0 against a fresh database of its own, and
//! clients that talk to them over the network as players do.
//!
//! ```no_run
//! # async fn demo() {
//! use skit_testkit::{TestDb, spawn_game};
//!
//! let db = TestDb::sqlite(); // or TestDb::postgres().await
//! let game = spawn_game(&db).await;
//! let ann = game.guest("ann").await;
//! let mut client = game.client(&ann).await; // sends ann's bearer token
//! # let _ = &mut client;
//! game.stop().await;
//! # }
//! ```
//!
//! [`on_both_databases!`] writes a test body once and runs it on SQLite and
//! on PostgreSQL. PostgreSQL is the server at `DATABASE_URL`, else
//! 127.0.0.1:5432; a test that cannot reach it fails saying how to start it.

mod expect_error;
mod game;
mod json_time;
mod matchmaker;
mod outage;
mod play;
mod player;
mod python;
mod running;

pub use expect_error::Expected;
pub use game::{GameService, game_config, spawn_game, spawn_game_with};
pub use json_time::assert_json_timestamp;
pub use matchmaker::{Matchmaker, matchmaker_config, spawn_matchmaker, spawn_matchmaker_with};
pub use outage::{DbProxy, assert_no_internals, assert_retry_hint, served_again};
pub use play::{play_out, random_move, seat_to_act, skitgubbe_for, submit, view};
pub use player::{Player, authed, guest_at};
pub use python::{python_bot_script, python3};
pub use skit_gateway::testing::{Http, sse_messages};
pub use skit_store::on_both_databases;
pub use skit_store::testing::TestDb;

/// The operator token every service started here accepts.
pub const OPERATOR_TOKEN: &str = "operator-secret-for-tests";

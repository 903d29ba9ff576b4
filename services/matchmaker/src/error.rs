//! The store's failures as every service answers them
//! ([`skit_api::store_error`]). The game service's answer about a token is
//! [`skit_gateway::game_client::auth_error`].

pub use skit_api::store_error;

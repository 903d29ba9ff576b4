//! The store's failures as the game service answers them: the shared
//! mapping of every service ([`skit_api::store_error`]).

pub use skit_api::{account_disabled, store_error};

//! How the store's failures reach the league service's clients: an outage as
//! UNAVAILABLE with a retry hint, the rest logged with their cause and
//! hidden. The game service's answer about a token is
//! [`skit_gateway::game_client::auth_error`]; everything else about errors
//! is the shared core in `skit_api::error`.

use skit_api::ApiError;

/// A store failure: UNAVAILABLE with a retry hint while the database
/// cannot be reached; anything else is never the client's to see.
pub fn store_error(e: skit_store::Error) -> ApiError {
    match e {
        skit_store::Error::Unavailable(_) => ApiError::database_unavailable(&e),
        _ => ApiError::internal("store error", &e),
    }
}

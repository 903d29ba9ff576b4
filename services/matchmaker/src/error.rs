//! How the matchmaker's dependencies' failures reach its clients: the game
//! service's answer about a token, and the store's failures (an outage as
//! UNAVAILABLE with a retry hint, the rest logged with their cause and
//! hidden). Everything else about errors is the shared core
//! in `skit_api::error`.

use std::time::Duration;

use skit_api::{ApiError, ErrorCode};
use tonic::{Code, Status};
use tonic_types::StatusExt;

/// When to try again while the game service cannot be reached: about as
/// long as it takes a restarting instance to answer again.
const GAME_RETRY_DELAY: Duration = Duration::from_secs(1);

/// The game service's answer to WhoAmI, as the caller should see it.
pub fn auth_error(status: &Status) -> ApiError {
    match status.code() {
        Code::Unauthenticated | Code::PermissionDenied => {
            // Why the token is refused, where a client can act on it.
            let reason = match status.get_details_error_info().map(|info| info.reason) {
                Some(r) if r == "token_expired" => "token_expired",
                Some(r) if r == "token_revoked" => "token_revoked",
                Some(r) if r == "account_disabled" => "account_disabled",
                _ => "unauthenticated",
            };
            ApiError::new(ErrorCode::Unauthenticated, reason, status.message())
        }
        Code::Unavailable | Code::DeadlineExceeded | Code::Cancelled => {
            ApiError::unavailable("the game service is unavailable", GAME_RETRY_DELAY)
        }
        _ => ApiError::internal("whoami failed", status),
    }
}

/// A store failure: UNAVAILABLE with a retry hint while the database
/// cannot be reached; anything else is never the client's to see.
pub fn store_error(e: skit_store::Error) -> ApiError {
    match e {
        skit_store::Error::Unavailable(_) => ApiError::database_unavailable(&e),
        _ => ApiError::internal("store error", &e),
    }
}

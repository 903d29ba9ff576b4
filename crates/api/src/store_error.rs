//! The store's failures as every service answers them (feature `store`):
//! an unknown game, a full table and a lost race are the client's to see;
//! a disabled account is `account_disabled`; an owner's bots at their cap
//! on games between bots is `bot_games_exceeded`; a database that cannot be
//! reached, or more moves queued than it takes on, is UNAVAILABLE with a
//! retry hint; anything else is logged with its cause and hidden
//! ([`ApiError::internal`]).

use skit_store::{AccountId, AccountStatus};

use crate::error::OVERLOAD_RETRY_DELAY;
use crate::{ApiError, ErrorCode};

/// A store error as the client sees it.
pub fn store_error(e: skit_store::Error) -> ApiError {
    match &e {
        skit_store::Error::GameNotFound(id) => ApiError::not_found(format!("no game {id}")),
        skit_store::Error::NoOpenSeat(id) => {
            ApiError::failed_precondition(format!("game {id} has no open seat"))
        }
        skit_store::Error::Conflict { current_version } => {
            ApiError::stale(current_version + 1, *current_version)
        }
        skit_store::Error::AccountDisabled { account, status } => {
            account_disabled(*account, *status)
        }
        skit_store::Error::Unavailable(_) => ApiError::database_unavailable(&e),
        skit_store::Error::Overloaded => ApiError::overloaded("appends", OVERLOAD_RETRY_DELAY),
        skit_store::Error::BotGamesExceeded {
            owner,
            limit,
            retry_after,
            ..
        } => ApiError::bot_games_exceeded(&owner.to_string(), *limit, *retry_after),
        _ => ApiError::internal("store error", &e),
    }
}

/// The refusal of every sign-in and credential of a disabled or banned
/// account.
pub fn account_disabled(account: AccountId, status: AccountStatus) -> ApiError {
    ApiError::new(
        ErrorCode::Unauthenticated,
        "account_disabled",
        format!("account {account} is {}", status.as_str()),
    )
}

//! The quotas on games: how many an account may have open (created or
//! seated, not over) and create per hour. The store counts them in the
//! transaction that creates the game or takes the seat, under the
//! account's quota lock, so they hold under concurrent requests and across
//! instances sharing the database, and a refused request creates nothing.
//! The operator (who seats matchmade tables) and house bots are exempt.
//! The cap on games between bots is the owners' of the bots at the table,
//! not the caller's: it holds whoever fills the last seat.

use skit_api::ApiError;
use skit_store::GameQuotas;

use super::GameApi;
use crate::auth::Caller;
use crate::error::store_error;

impl GameApi {
    /// The quotas `caller` is held to.
    pub(super) fn quotas_of(&self, caller: &Caller) -> GameQuotas {
        match caller.is_operator() || caller.account.house_bot {
            true => GameQuotas {
                bot_games_per_day: self.state.quotas.bot_games_per_day,
                ..GameQuotas::default()
            },
            false => self.state.quotas,
        }
    }
}

/// A store error as the client sees it; a quota's refusal says how much
/// the account holds (and the cap on games between bots, as
/// [`store_error`] says, whose and until when).
pub(super) fn quota_error(e: skit_store::Error) -> ApiError {
    let skit_store::Error::QuotaExceeded { quota, limit, held } = e else {
        return store_error(e);
    };
    let message = match quota {
        "games_per_hour" => format!("you created {held} games in the last hour, the most allowed"),
        _ => format!("you have {held} open games, the most allowed; finish or resign one first"),
    };
    ApiError::quota_exceeded(quota, limit, message)
}

//! The quotas on games: how many an account may have open (created or
//! seated, not over) and create per hour. Counted in the database, so they
//! hold across instances; checked before anything is written, so a
//! refused request creates nothing. The operator (who seats matchmade
//! tables) and house bots are exempt.

use std::time::Duration;

use skit_api::ApiError;

use super::GameApi;
use crate::auth::Caller;
use crate::error::store_error;

const HOUR: Duration = Duration::from_secs(60 * 60);

impl GameApi {
    /// Refuses `caller` another open game if it holds its quota.
    pub(super) async fn check_open_games(&self, caller: &Caller) -> Result<(), ApiError> {
        let Some(limit) = self.state.quotas.open_games.filter(|_| limited(caller)) else {
            return Ok(());
        };
        let open = self
            .state
            .store
            .open_games_of(caller.account.id)
            .await
            .map_err(store_error)?;
        if open < limit {
            return Ok(());
        }
        Err(ApiError::quota_exceeded(
            "open_games",
            limit,
            format!("you have {open} open games, the most allowed; finish or resign one first"),
        ))
    }

    /// Refuses `caller` another new game if it created its quota in the
    /// last hour.
    pub(super) async fn check_games_per_hour(&self, caller: &Caller) -> Result<(), ApiError> {
        let Some(limit) = self.state.quotas.games_per_hour.filter(|_| limited(caller)) else {
            return Ok(());
        };
        let created = self
            .state
            .store
            .games_created_within(caller.account.id, HOUR)
            .await
            .map_err(store_error)?;
        if created < limit {
            return Ok(());
        }
        Err(ApiError::quota_exceeded(
            "games_per_hour",
            limit,
            format!("you created {created} games in the last hour, the most allowed"),
        ))
    }
}

fn limited(caller: &Caller) -> bool {
    !(caller.is_operator() || caller.account.house_bot)
}

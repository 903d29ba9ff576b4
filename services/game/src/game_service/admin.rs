//! What operator actions do to games, through the normal append path (so
//! clocks, notices and the end-of-game hook follow as for any append):
//! ending a game as void, and marking a disabled account's seats absent
//! for the clock rule to play (`live/absent.rs`).

use skit_api::ApiError;
use skit_store::{AccountId, GameId};

use super::GameApi;
use super::play::APPEND_ATTEMPTS;
use crate::error::store_error;

/// How many of a disabled account's running games get their seats marked
/// absent at once; an account in more has the rest marked by a later
/// status change (docs/admin.md).
const RUNNING_GAMES: u32 = 1000;

impl GameApi {
    /// Appends game `id`'s void event; answers the version it was stored
    /// at. FAILED_PRECONDITION (`game_over`) once the game is over.
    #[tracing::instrument(skip(self, reason))]
    pub(crate) async fn void(&self, id: GameId, reason: &str) -> Result<u64, ApiError> {
        let mut live = self.state.games.lock(id).await?;
        self.state.games.catch_up(&mut live).await?;
        for _ in 0..APPEND_ATTEMPTS {
            if let Some(void) = &live.void {
                return Ok(void.version);
            }
            let events = live.plan_void(reason)?;
            match self.append(&mut live, events).await {
                Ok(()) => return Ok(live.version),
                Err(
                    skit_store::Error::Conflict { .. } | skit_store::Error::DuplicateMove { .. },
                ) => self.state.games.catch_up(&mut live).await?,
                Err(e) => return Err(store_error(e)),
            }
        }
        Err(ApiError::stale(live.version, live.version))
    }

    /// Marks `account`'s seats absent in every game of its that is not
    /// over; answers how many games that touched.
    #[tracing::instrument(skip(self))]
    pub(crate) async fn mark_absent(&self, account: AccountId) -> Result<usize, ApiError> {
        let games = self
            .state
            .store
            .games_for_account(account, false, RUNNING_GAMES)
            .await
            .map_err(store_error)?;
        let mut marked = 0;
        for game in games {
            if self.mark_absent_in(game.id, account).await? {
                marked += 1;
            }
        }
        Ok(marked)
    }

    async fn mark_absent_in(&self, id: GameId, account: AccountId) -> Result<bool, ApiError> {
        let mut live = self.state.games.lock(id).await?;
        self.state.games.catch_up(&mut live).await?;
        for _ in 0..APPEND_ATTEMPTS {
            let events = live.plan_absent(account);
            if events.is_empty() {
                return Ok(false);
            }
            match self.append(&mut live, events).await {
                Ok(()) => return Ok(true),
                Err(
                    skit_store::Error::Conflict { .. } | skit_store::Error::DuplicateMove { .. },
                ) => self.state.games.catch_up(&mut live).await?,
                Err(e) => return Err(store_error(e)),
            }
        }
        Err(ApiError::stale(live.version, live.version))
    }
}

//! Idempotent CreateGame: a request id, unique per creator, names the game
//! its first request created, so a client (the matchmaker after a crash)
//! can repeat the request without creating a second game.

use skit_api::ApiError;
use skit_proto::v1::CreateGameResponse;

use super::{GameApi, assignments};
use crate::auth::Caller;
use crate::error::store_error;

impl GameApi {
    /// The answer for the game `caller` created with `request_id`, as the
    /// game is now; `None` if there is none.
    pub(super) async fn created_before(
        &self,
        caller: &Caller,
        request_id: &str,
    ) -> Result<Option<CreateGameResponse>, ApiError> {
        let Some(id) = self
            .state
            .store
            .game_by_request_id(caller.account.id, request_id)
            .await
            .map_err(store_error)?
        else {
            return Ok(None);
        };
        tracing::info!(game_id = %id, request_id, "repeated create answered with the first game");
        let live = self.state.games.lock(id).await?;
        Ok(Some(CreateGameResponse {
            game_id: id.to_string(),
            seats: assignments(&live),
            dealer: u32::from(live.game.state().dealer()),
            shuffle_commitment: live.commitment.clone(),
            version: live.version,
        }))
    }
}

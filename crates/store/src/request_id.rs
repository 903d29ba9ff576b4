//! Idempotent game creation: a creator's request id is stored with the game
//! (unique per creator), so a repeated create finds the first game.

use crate::error::is_unique_violation;
use crate::{AccountId, Error, GameId, Store, rows};

const GAME_BY_REQUEST_ID: &str = "SELECT id FROM games WHERE created_by = $1 AND request_id = $2";

/// Maps a unique violation on inserting a game to [`Error::DuplicateRequest`]:
/// the id is a fresh UUID, so the request id is what collided.
pub(crate) fn explain_insert(e: sqlx::Error) -> Error {
    match is_unique_violation(&e) {
        true => Error::DuplicateRequest,
        false => e.into(),
    }
}

impl Store {
    /// The game `created_by` created with `request_id`, if any.
    #[tracing::instrument(skip(self))]
    pub async fn game_by_request_id(
        &self,
        created_by: AccountId,
        request_id: &str,
    ) -> Result<Option<GameId>, Error> {
        let params = (created_by.0, request_id);
        let id: Option<(String,)> = self.db.fetch_optional(GAME_BY_REQUEST_ID, params).await?;
        id.map(|(id,)| rows::parse_game_id(&id)).transpose()
    }
}

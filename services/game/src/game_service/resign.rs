//! Resign: a seat gives up at any time while the game runs, whoever is to
//! act; it becomes the skitgubbe and the game ends at once.

use skit_api::ApiError;
use skit_proto::v1::{ResignRequest, ResignResponse};

use super::play::APPEND_ATTEMPTS;
use super::{GameApi, game_id, held_seat, seat_move_id};
use crate::auth::Caller;
use crate::convert;
use crate::error::store_error;
use crate::live::Forfeit;

impl GameApi {
    #[tracing::instrument(skip_all, fields(game_id = %req.game_id, seat = req.seat))]
    pub(super) async fn resign_seat(
        &self,
        caller: Caller,
        req: ResignRequest,
    ) -> Result<ResignResponse, ApiError> {
        let id = game_id(&req.game_id)?;
        let mut live = self.state.games.lock(id).await?;
        let seat = self
            .seat_checked(&mut live, |live| held_seat(&caller, live, req.seat))
            .await?;
        let move_id = seat_move_id(seat, &req.move_id)?;
        for _ in 0..APPEND_ATTEMPTS {
            if let Some(end) = live.resignation_by_id(&move_id) {
                if end.seat != seat {
                    return Err(ApiError::move_id_reused(format!(
                        "move id {:?} was used by seat {}",
                        req.move_id, end.seat
                    )));
                }
                return Ok(ResignResponse {
                    version: end.version,
                    view: Some(convert::view(&live, Some(seat), None)),
                });
            }
            if live.move_by_id(&move_id).is_some() {
                return Err(ApiError::move_id_reused(format!(
                    "move id {:?} was used for a move",
                    req.move_id
                )));
            }
            let events = live.plan_forfeit(seat, Forfeit::Resigned, Some(&move_id))?;
            match self.append(&mut live, events).await {
                Ok(()) => {
                    return Ok(ResignResponse {
                        version: live.version,
                        view: Some(convert::view(&live, Some(seat), None)),
                    });
                }
                Err(
                    skit_store::Error::Conflict { .. } | skit_store::Error::DuplicateMove { .. },
                ) => self.state.games.catch_up(&mut live).await?,
                Err(e) => return Err(store_error(e)),
            }
        }
        Err(ApiError::stale(live.version, live.version))
    }
}

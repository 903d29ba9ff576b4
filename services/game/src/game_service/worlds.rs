//! SampleWorlds: the engine's sampler (`Game::sample_worlds`, docs/engine.md
//! "Sampled worlds") run for a seat its caller holds, on the live game. The
//! sampler sees the whole game but places every card the seat cannot locate
//! from public facts and the seed alone, so a world tells the seat nothing
//! its view does not.

use skit_api::{ApiError, ErrorCode, world_message};
use skit_engine::{Game, Seat, World};
use skit_proto::v1::{SampleWorldsRequest, SampleWorldsResponse};

use super::{GameApi, game_id, held_seat};
use crate::auth::Caller;
use crate::live::Live;

/// The most worlds one call returns (the proto's `n` bounds say the same).
const MAX_WORLDS: u32 = 64;

fn worlds_wanted(n: u32) -> Result<usize, ApiError> {
    if n == 0 || n > MAX_WORLDS {
        return Err(ApiError::invalid(
            "n",
            format!("must be 1 to {MAX_WORLDS} worlds per call, not {n}"),
        ));
    }
    Ok(n as usize)
}

/// The seat the caller may sample for: one they hold (or any, for the
/// operator). A caller with no seat here is a spectator, who sees no hand.
fn sampling_seat(caller: &Caller, live: &Live, seat: u32) -> Result<Seat, ApiError> {
    if !caller.is_operator() && live.seats_of(caller.account.id).is_empty() {
        return Err(ApiError::new(
            ErrorCode::PermissionDenied,
            "spectator_sees_no_hand",
            "you hold no seat in this game: worlds agree with a seat's view, \
             and a spectator sees no hand",
        ));
    }
    held_seat(caller, live, seat)
}

/// `n` worlds of `game` for `seat`, off the async runtime: a call may try
/// many arrangements under rules that reveal voids.
async fn sample(game: Game, seat: Seat, n: usize, seed: u64) -> Result<Vec<World>, ApiError> {
    tokio::task::spawn_blocking(move || {
        let worlds = game.sample_worlds(Some(seat), n, seed).map_err(|e| {
            ApiError::new(
                ErrorCode::FailedPrecondition,
                "no_world_found",
                e.to_string(),
            )
        })?;
        Ok(worlds.iter().map(Game::world).collect())
    })
    .await
    .map_err(|e| ApiError::internal("sampling worlds stopped", &e))?
}

impl GameApi {
    #[tracing::instrument(skip_all, fields(game_id = %req.game_id, seat = req.seat, n = req.n))]
    pub(super) async fn sample_worlds_for(
        &self,
        caller: Caller,
        req: SampleWorldsRequest,
    ) -> Result<SampleWorldsResponse, ApiError> {
        let id = game_id(&req.game_id)?;
        let n = worlds_wanted(req.n)?;
        let (game, version, seat) = {
            let mut live = self.state.games.lock_at(id, req.min_version).await?;
            super::read::at_least(&live, req.min_version)?;
            let seat = self
                .seat_checked(&mut live, |live| sampling_seat(&caller, live, req.seat))
                .await?;
            (live.game.clone(), live.version, seat)
        };
        let worlds = sample(game, seat, n, req.seed).await?;
        Ok(SampleWorldsResponse {
            game_id: id.to_string(),
            version,
            seat: u32::from(seat),
            worlds: worlds.iter().map(world_message).collect(),
        })
    }
}

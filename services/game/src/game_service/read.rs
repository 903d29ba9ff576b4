//! Queries: views (optionally long-polled), the watch stream and the
//! history (the caller's games: `list`). Every view is built by `convert::view` for the
//! caller's own seat or a spectator.

use std::time::Duration;

use skit_api::ApiError;
use skit_engine::Action;
use tokio::time::Instant;

use skit_engine::Seat;
use skit_gateway::SharedViews;
use skit_proto::v1::{
    GetHistoryRequest, GetHistoryResponse, GetViewRequest, View, WatchGameRequest,
};
use tonic::Status;

use super::{GameApi, game_id, held_seat};
use crate::auth::Caller;
use crate::convert;
use crate::live::Live;
use crate::watcher::Watcher;

/// VERSION_AHEAD unless the game is at `min_version` or later.
pub(super) fn at_least(live: &Live, min_version: Option<u64>) -> Result<(), ApiError> {
    match min_version {
        Some(min) if live.version < min => Err(ApiError::version_ahead(min, live.version)),
        _ => Ok(()),
    }
}

impl GameApi {
    /// The seat a view request is for: `None` is a spectator.
    fn viewer(
        caller: &Caller,
        live: &Live,
        seat: Option<u32>,
        spectator: bool,
    ) -> Result<Option<Seat>, ApiError> {
        match (seat, spectator) {
            (Some(_), true) => Err(ApiError::invalid("seat", "a spectator view names no seat")),
            (None, true) => Ok(None),
            (Some(seat), false) => held_seat(caller, live, seat).map(Some),
            (None, false) => match live.seats_of(caller.account.id)[..] {
                [] => Ok(None),
                [seat] => Ok(Some(seat)),
                _ => Err(ApiError::invalid(
                    "seat",
                    "you hold several seats: name one",
                )),
            },
        }
    }

    #[tracing::instrument(skip_all, fields(game_id = %req.game_id, seat = req.seat))]
    pub(super) async fn get_view_for(
        &self,
        caller: Caller,
        req: GetViewRequest,
    ) -> Result<View, ApiError> {
        let id = game_id(&req.game_id)?;
        let mut latest = self.state.games.watch(id);
        let deadline = tokio::time::Instant::now() + self.wait_time(req.timeout_ms);
        let draining = &self.state.draining;
        // Versions the caller knows of: read from the log if this instance
        // has not heard of them yet.
        let mut known = req.min_version.max(req.wait_for_version_after);
        loop {
            latest.borrow_and_update();
            let mut live = self.state.games.lock_at(id, known.take()).await?;
            at_least(&live, req.min_version)?;
            let seat = self
                .seat_checked(&mut live, |live| {
                    Self::viewer(&caller, live, req.seat, req.spectator)
                })
                .await?;
            let ready = req
                .wait_for_version_after
                .is_none_or(|after| live.version > after);
            if ready || live.is_over() || Instant::now() >= deadline || draining.is_cancelled() {
                return Ok(convert::view(&live, seat, req.history_after));
            }
            drop(live);
            // A timeout, a closed channel or a shutdown all mean: answer
            // with what is (a client polls again, elsewhere if need be).
            tokio::select! {
                _ = tokio::time::timeout_at(deadline, latest.changed()) => {}
                () = draining.cancelled() => {}
            }
        }
    }

    pub(super) fn wait_time(&self, timeout_ms: u32) -> Duration {
        Duration::from_millis(u64::from(timeout_ms)).min(self.state.long_poll_cap)
    }

    /// The views of a WatchGame stream, shared with the game's other
    /// watchers of the same seat (or spectators) while it keeps up
    /// (`feed`).
    pub(super) async fn watch(
        &self,
        caller: Caller,
        req: WatchGameRequest,
    ) -> Result<SharedViews, ApiError> {
        let id = game_id(&req.game_id)?;
        let known = req.min_version.max(req.from_version);
        let seat = {
            let mut live = self.state.games.lock_at(id, known).await?;
            at_least(&live, req.min_version)?;
            self.seat_checked(&mut live, |live| {
                Self::viewer(&caller, live, req.seat, req.spectator)
            })
            .await?
        };
        let watcher = Watcher::new(
            self.state.games.clone(),
            id,
            seat,
            req.from_version,
            self.state.draining.clone(),
        );
        let views = futures_util::stream::unfold(watcher, |mut watcher| async move {
            let next = watcher.next().await?;
            Some((next.map_err(Status::from), watcher))
        });
        Ok(Box::pin(views))
    }

    /// The public history to anyone signed in; after the end, the full log
    /// (never for a sealed game).
    #[tracing::instrument(skip_all, fields(game_id = %req.game_id))]
    pub(super) async fn history(
        &self,
        _caller: Caller,
        req: GetHistoryRequest,
    ) -> Result<GetHistoryResponse, ApiError> {
        let id = game_id(&req.game_id)?;
        let known = req.min_version.max(req.after_version);
        let live = self.state.games.lock_at(id, known).await?;
        at_least(&live, req.min_version)?;
        let full = live.revealed();
        let after = req.after_version;
        let actions = if full {
            let deal = (after.is_none(), Action::Shuffle(live.deck.clone()));
            let rest = live
                .log
                .iter()
                .map(|(v, a)| (after.is_none_or(|x| *v > x), a.clone()));
            std::iter::once(deal)
                .chain(rest)
                .filter(|(keep, _)| *keep)
                .map(|(_, a)| a.to_json().to_string())
                .collect()
        } else {
            Vec::new()
        };
        let state = live.game.state();
        Ok(GetHistoryResponse {
            game_id: live.id.to_string(),
            rules: Some(live.rules_message.as_ref().clone()),
            players: u32::from(state.players()),
            dealer: u32::from(state.dealer()),
            events: convert::history(&live, None, after, full),
            complete: full,
            shuffle_commitment: live.commitment.clone(),
            seed: live.revealed_seed(),
            actions,
        })
    }
}

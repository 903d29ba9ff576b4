//! Playing one seat's turns in one game: read the view, let the strategy
//! choose, submit with a move id derived from (game, seat, version), and
//! again while the seat may act. Every refusal leads to a fresh read; a
//! resent move id never plays twice.

use backon::ExponentialBuilder;
use rand::SeedableRng;
use rand::rngs::StdRng;
use skit_api::{GameClient, action_message, engine_view};
use skit_bots::Strategy;
use skit_proto::v1::{GetViewRequest, Phase, SubmitMoveRequest, View};
use tokio_util::sync::CancellationToken;
use tonic::{Code, Status};

use crate::retry::retried;

/// Refusals in a row after which the turn is left to the next listing.
const REFUSALS: usize = 3;

/// Why a turn was given up.
#[derive(Debug, thiserror::Error)]
pub enum TurnError {
    #[error("{0}")]
    Call(#[from] Status),
    #[error("the view does not convert: {0}")]
    View(#[from] skit_api::ConvertError),
    #[error("the service refused {REFUSALS} moves in a row; last: {0}")]
    Refused(Status),
    #[error("the strategy task failed: {0}")]
    Strategy(#[from] tokio::task::JoinError),
}

/// The move id for `seat`'s move at `version`: the same decision point
/// always gets the same id, so a retry after a lost answer (or a restart)
/// cannot play twice.
pub fn move_id(game: &str, seat: u32, version: u64) -> String {
    format!("bot:{game}:{seat}:{version}")
}

/// One seat of one game, played by one account's strategy.
#[derive(Debug)]
pub struct Turn {
    pub client: GameClient,
    pub game: String,
    pub seat: u32,
    /// The newest version the bot was told of (by ListGames, then by its
    /// own moves): every read shows at least it, whichever instance
    /// behind a load balancer answers.
    pub known: u64,
    pub strategy: Box<dyn Strategy>,
}

impl Turn {
    /// Plays while the seat may act, each call retried under `retry`;
    /// returns the moves made.
    #[tracing::instrument(name = "turn", skip_all, fields(game_id = %self.game, seat = self.seat))]
    pub async fn play(
        mut self,
        retry: ExponentialBuilder,
        cancel: &CancellationToken,
    ) -> Result<usize, TurnError> {
        let mut rng = StdRng::from_os_rng();
        let mut moves = 0;
        let mut refusals = 0;
        let mut next: Option<View> = None;
        while !cancel.is_cancelled() {
            let view = match next.take() {
                Some(view) => view,
                None => read_view(&self.client, &self.game, self.seat, self.known, retry).await?,
            };
            if view.phase == Phase::Over as i32 || view.legal_actions.is_empty() {
                break;
            }
            let engine = engine_view(&view)?;
            let strategy = self.strategy;
            let (strategy, chosen, back) = tokio::task::spawn_blocking(move || {
                let mut strategy = strategy;
                let chosen = strategy.choose(&engine, &mut rng);
                (strategy, chosen, rng)
            })
            .await?;
            self.strategy = strategy;
            rng = back;
            let Some(kind) = chosen else { break };
            let request = SubmitMoveRequest {
                game_id: self.game.clone(),
                seat: self.seat,
                move_id: move_id(&self.game, self.seat, view.version),
                expected_version: view.version,
                action: Some(action_message(&kind)),
            };
            let client = self.client.clone();
            let reply = retried("SubmitMove", retry, || {
                let mut client = client.clone();
                let request = request.clone();
                async move { client.submit_move(request).await }
            })
            .await;
            match reply {
                Ok(reply) => {
                    moves += 1;
                    refusals = 0;
                    tracing::debug!(version = view.version, ?kind, "moved");
                    let reply = reply.into_inner();
                    self.known = self.known.max(reply.version);
                    next = reply.view;
                }
                Err(status) => match status.code() {
                    Code::Aborted => {
                        tracing::debug!(message = status.message(), "stale version; reading again");
                    }
                    Code::FailedPrecondition | Code::AlreadyExists => {
                        tracing::warn!(code = ?status.code(), message = status.message(), "move refused; reading again");
                        refusals += 1;
                        if refusals >= REFUSALS {
                            return Err(TurnError::Refused(status));
                        }
                    }
                    _ => return Err(status.into()),
                },
            }
        }
        Ok(moves)
    }
}

/// The seat's view with the whole history (the search replays it). A free
/// function: a `Turn` holds its strategy, which is `Send` but not `Sync`.
async fn read_view(
    client: &GameClient,
    game: &str,
    seat: u32,
    known: u64,
    retry: ExponentialBuilder,
) -> Result<View, Status> {
    let request = GetViewRequest {
        game_id: game.to_owned(),
        seat: Some(seat),
        min_version: Some(known),
        ..Default::default()
    };
    retried("GetView", retry, || {
        let mut client = client.clone();
        let request = request.clone();
        async move { client.get_view(request).await }
    })
    .await
    .map(tonic::Response::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_ids_name_the_decision_point_and_fit_the_limit() {
        let game = "0f6b2c1e-8d3a-4b7f-9e21-5c4d3b2a1f00";
        assert_eq!(move_id(game, 2, 17), move_id(game, 2, 17));
        assert_ne!(move_id(game, 2, 17), move_id(game, 2, 18));
        assert_ne!(move_id(game, 1, 17), move_id(game, 2, 17));
        assert!(move_id(game, 9, u64::MAX).len() <= 128);
    }
}

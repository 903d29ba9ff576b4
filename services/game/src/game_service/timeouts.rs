//! Applying a run-out clock to one game: re-derive the deadlines from the
//! log, and for a seat whose time is up (or whose holder is absent,
//! `live/absent.rs`) append what the time control says through the normal
//! append path. Optimistic concurrency makes this safe
//! against moves and other instances: a move stored first wins (the append
//! conflicts, the game is re-read and the deadline is no longer due), and
//! of two instances only one append at a version can succeed.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use skit_api::ApiError;
use skit_bots::{Greedy, Strategy};
use skit_engine::{MoveKind, Seat};
use skit_store::{GameId, NewEvent};
use time::OffsetDateTime;

use super::GameApi;
use crate::clock::OnTimeout;
use crate::error::store_error;
use crate::live::{Forfeit, Live};

impl GameApi {
    /// Applies every clock of game `id` that has run out by now, then
    /// stores its next deadline.
    #[tracing::instrument(skip(self))]
    pub(crate) async fn enforce_clock(&self, id: GameId) -> Result<(), ApiError> {
        let mut live = self.state.games.lock(id).await?;
        self.state.games.catch_up(&mut live).await?;
        // Each step is a timeout or a lost race; both are bounded per game.
        for _ in 0..4 * skit_engine::MAX_SEATS {
            let now = OffsetDateTime::now_utc();
            let due = live.due().filter(|(deadline, _)| *deadline <= now);
            let Some((_, seat)) = due else {
                self.sync_clock(&live).await;
                return Ok(());
            };
            let events = timeout_events(&live, seat)?;
            match self.append(&mut live, events).await {
                Ok(()) => tracing::info!(seat, version = live.version, "clock ran out"),
                Err(
                    skit_store::Error::Conflict { .. } | skit_store::Error::DuplicateMove { .. },
                ) => self.state.games.catch_up(&mut live).await?,
                Err(e) => return Err(store_error(e)),
            }
        }
        self.sync_clock(&live).await;
        Ok(())
    }
}

/// What a run-out clock does for `seat`: in a window where it may pass, a
/// pass; otherwise a bot move, a loss or a forfeit with play going on, as
/// the time control says (a seat that forfeited gets bot moves). In a game
/// without a clock only an absent seat is ever due: it forfeits.
fn timeout_events(live: &Live, seat: Seat) -> Result<Vec<NewEvent>, ApiError> {
    if live.clocks.is_none() {
        return live.plan_forfeit(seat, Forfeit::Timeout, None);
    }
    let legal = live.game.legal_moves_for(seat);
    if legal.iter().any(|m| m.kind == MoveKind::Pass) {
        return live.plan_clock_move(seat, MoveKind::Pass);
    }
    let on_timeout = live
        .clocks
        .as_ref()
        .map_or(OnTimeout::BotMove, |c| c.control.on_timeout);
    // A seat that forfeited is played by the clock until the end.
    let on_timeout = match live.has_forfeited(seat) {
        true => OnTimeout::BotMove,
        false => on_timeout,
    };
    match on_timeout {
        OnTimeout::Lose => live.plan_forfeit(seat, Forfeit::Timeout, None),
        OnTimeout::Forfeit => live.plan_play_on_forfeit(seat),
        OnTimeout::BotMove => {
            let view = live.game.view(Some(seat));
            // Seeded by the version: the same position gets the same move.
            let mut rng = ChaCha8Rng::seed_from_u64(live.version);
            let kind = Greedy.choose(&view, &mut rng).ok_or_else(|| {
                ApiError::invariant(&format!(
                    "a running clock for seat {seat}, which has no legal action"
                ))
            })?;
            live.plan_clock_move(seat, kind)
        }
    }
}

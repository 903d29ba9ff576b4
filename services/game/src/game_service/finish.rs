//! What follows an append: keeping the game's clock row in step, and the
//! one place a game's end is handled, however it ended (played out, a
//! resignation, a loss on time), so that hooks such as ratings sit here.

use skit_store::Error;
use time::OffsetDateTime;

use super::GameApi;
use crate::cached::Cached;
use crate::clock;
use crate::live::Live;
use crate::rating_jobs;

impl GameApi {
    /// The game just ended (its last event is stored and applied). Called
    /// once per ending by the instance whose append ended it. What follows
    /// (the mark, the rating) is retried if refused, never the append's
    /// failure: the move that ended the game is stored and acknowledged.
    #[tracing::instrument(skip_all, fields(game_id = %live.id, version = live.version))]
    pub(super) async fn game_finished(&self, live: &mut Cached) {
        rating_jobs::on_game_over(&self.state, live).await;
        tracing::info!(loser = ?live.ending.as_ref().map(|e| e.seat), "game over");
    }

    /// Before an append to a timed game: moves the stored deadline down to
    /// the earliest the append can make it, so that a crash between the
    /// append and [`Self::sync_clock`] never leaves it too late.
    pub(super) async fn lower_clock(&self, live: &Live) -> Result<(), Error> {
        let Some(clocks) = live.clocks.as_ref().filter(|_| !live.is_over()) else {
            return Ok(());
        };
        let bound = clocks.lower_bound(OffsetDateTime::now_utc());
        self.state
            .store
            .lower_clock(live.id, live.version, clock::unix_ms(bound))
            .await
    }

    /// Stores the game's exact next deadline (none once over; for an
    /// untimed game, when an absent seat must forfeit) and wakes
    /// this instance's timeout task. A failure is only logged: the stored
    /// row is then early, never late, and the task corrects it.
    pub(crate) async fn sync_clock(&self, live: &Live) {
        if !live.watched() {
            return;
        }
        let deadline = live.due().map(|(at, _)| clock::unix_ms(at));
        match self
            .state
            .store
            .set_clock(live.id, live.version, deadline)
            .await
        {
            Ok(()) if deadline.is_some() => self.state.clock_wake.notify_one(),
            Ok(()) => {}
            Err(error) => tracing::warn!(%error, game_id = %live.id, "cannot store the deadline"),
        }
    }
}

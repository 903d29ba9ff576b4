//! The timeout task: sleeps until the earliest stored deadline of any game,
//! then has each due game's clocks applied. It wakes early when this
//! instance stores a new deadline, and re-reads the table at least every
//! `clock_recheck_ms` for deadlines written by other instances (or by one
//! that stopped before applying them). Every instance runs one; the store's
//! optimistic concurrency keeps them from applying a timeout twice.

use std::time::Duration;

use time::OffsetDateTime;

use crate::clock;
use crate::game_service::GameApi;

/// Due games handled per pass; the rest wait for the next pass (at once).
const BATCH: u32 = 100;

/// Runs until aborted.
pub async fn enforce(api: GameApi, recheck: Duration) {
    let store = api.state.store.clone();
    let wake = api.state.clock_wake.clone();
    loop {
        let now = clock::unix_ms(OffsetDateTime::now_utc());
        let due = match store.due_clocks(now, BATCH).await {
            Ok(due) => due,
            Err(error) => {
                tracing::warn!(%error, "cannot read due clocks");
                Vec::new()
            }
        };
        for id in &due {
            if let Err(error) = api.enforce_clock(*id).await {
                tracing::warn!(%error, game_id = %id, "cannot apply a run-out clock");
            }
        }
        let next = match store.next_clock().await {
            Ok(next) => next,
            Err(error) => {
                tracing::warn!(%error, "cannot read the next deadline");
                None
            }
        };
        let now = clock::unix_ms(OffsetDateTime::now_utc());
        // One millisecond past the deadline, so it is due when we wake.
        let sleep = next.map_or(recheck, |at| {
            Duration::from_millis(u64::try_from(at - now + 1).unwrap_or(0)).min(recheck)
        });
        if sleep.is_zero() && due.len() < BATCH as usize && !due.is_empty() {
            // A due row that enforcing did not move (a failing game): do
            // not spin on it.
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        }
        tokio::select! {
            () = tokio::time::sleep(sleep) => {}
            () = wake.notified() => {}
        }
    }
}

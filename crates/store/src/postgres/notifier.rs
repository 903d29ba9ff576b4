//! Sending append notices: one task per store sends them after the
//! commits they announce, merging every notice that queued while its
//! previous statement was in flight into the next one. Under load that is
//! one `pg_notify` statement for several group-commit batches instead of
//! one each, which saves Postgres a transaction per batch; idle, a notice
//! goes out at once.

use std::collections::HashMap;

use sqlx::postgres::PgPool;
use tokio::sync::mpsc;
use tokio::time::{Duration, Instant};

use super::listener;
use crate::held::Held;
use crate::{Appended, GameId};

/// Batches of notices waiting to be sent; beyond it, notices are dropped
/// (with a warning) rather than held: they are hints, see [`crate::Appended`].
const QUEUE: usize = 4096;

/// The least time between two notice statements. Each is a transaction
/// on Postgres; under load, one per group-commit batch cost the database a
/// tenth of its CPU. A notice then waits at most this long, against the
/// 100 ms a move may take to reach another instance.
const GAP: Duration = Duration::from_millis(5);

/// The sending end; the task stops when the last clone is dropped.
#[derive(Debug, Clone)]
pub(crate) struct Notifier {
    queue: mpsc::Sender<Vec<Appended>>,
}

impl Notifier {
    /// Starts the sending task on the current Tokio runtime.
    pub(crate) fn start(pool: PgPool) -> Self {
        let (queue, receiver) = mpsc::channel(QUEUE);
        tokio::spawn(send_notices(pool, receiver));
        Self { queue }
    }

    /// Queues notices without waiting.
    pub(crate) fn send(&self, notices: Vec<Appended>) {
        if notices.is_empty() {
            return;
        }
        if self.queue.try_send(notices).is_err() {
            tracing::warn!("append notices dropped: the notifier is behind or stopped");
        }
    }
}

async fn send_notices(pool: PgPool, mut receiver: mpsc::Receiver<Vec<Appended>>) {
    let mut queued = Vec::new();
    let mut held = Held::new(pool);
    let mut next = Instant::now();
    while receiver.recv_many(&mut queued, QUEUE).await > 0 {
        // Under load, notices wait for the gap to pass and go out together.
        tokio::time::sleep_until(next).await;
        while let Ok(more) = receiver.try_recv() {
            queued.push(more);
        }
        next = Instant::now() + GAP;
        let notices = latest(queued.drain(..).flatten());
        if let Err(error) = listener::notify_all(&mut held, &notices).await {
            tracing::warn!(%error, "cannot send append notices");
        }
    }
}

/// One notice per game: the one of its highest seq (whose turn it is
/// then, too).
fn latest(notices: impl Iterator<Item = Appended>) -> Vec<Appended> {
    let mut by_game: HashMap<GameId, Appended> = HashMap::new();
    for notice in notices {
        match by_game.get(&notice.game_id) {
            Some(known) if known.seq >= notice.seq => {}
            _ => {
                by_game.insert(notice.game_id, notice);
            }
        }
    }
    by_game.into_values().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_notice_per_game_the_latest() {
        let (a, b) = (
            GameId(uuid::Uuid::from_u128(1)),
            GameId(uuid::Uuid::from_u128(2)),
        );
        let turn = |seq: u64| Appended {
            to_act: Some(std::sync::Arc::from([crate::AccountId(seq as i64)])),
            ..Appended::new(a, seq)
        };
        let notices = [turn(3), Appended::new(b, 7), turn(5), turn(4)];
        let mut merged = latest(notices.into_iter());
        merged.sort_by_key(|n| n.seq);
        // The latest notice of a game says whose turn it is now.
        assert_eq!(merged, vec![turn(5), Appended::new(b, 7)]);
    }
}

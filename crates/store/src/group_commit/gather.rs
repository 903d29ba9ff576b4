//! How long a committer waits to fill a batch. Where the disk's flush is
//! the limit (a commit takes milliseconds), the games a commit answered
//! send their next moves well within the next commit's time; written at
//! once, the next batch holds only the requests that queued during the
//! last commit, and the batches split into two halves that alternate,
//! each paying a whole flush.
//!
//! So the committer waits for the games it answered, but only while the
//! wait pays for itself: a batch of `n` that waits `w` for `k` more
//! commits faster per request if `k / n > w / d`, `d` being what the last
//! commit took. Each further request must arrive within `d / n` of the
//! one before (on average), else the batch goes as it is. After a commit
//! short enough to be bound by the CPU rather than the flush, the batch
//! does not wait at all. Nothing is acknowledged before its commit either
//! way.

use std::time::Duration;

use tokio::sync::mpsc;
use tokio::time::Instant;

/// A commit shorter than this was bound by the CPU, not the disk's flush,
/// and the batch after it waits for nothing: with a fixed number of games
/// in play, waiting lengthens every game's turn, and only pays where
/// the flush is what each move waits for. Batches bound by the CPU took
/// 1.4 to 3.6 ms (10th to 90th percentile) on Postgres on the project's
/// machines, and the wait cost SQLite a tenth of its moves there.
const SLOW_COMMIT: Duration = Duration::from_millis(5);

/// The longest a batch waits to fill, whatever the commits take.
const MOST: Duration = Duration::from_millis(10);

/// What a committer knows of its last commit.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct LastCommit {
    /// How long the write and its commit took.
    pub took: Duration,
    /// How many requests it answered.
    pub answered: usize,
}

impl LastCommit {
    /// How many requests the next batch waits for, given those queued when
    /// it began (they arrived during the last commit): those, and as many
    /// as the last commit answered. `None`: write what is there at once,
    /// as after a fast commit, or after a commit of a single request
    /// (light load, where the one answered player may not move for
    /// seconds).
    fn gather(&self, queued: usize, max_batch: usize) -> Option<usize> {
        if self.took < SLOW_COMMIT || self.answered < 2 {
            return None;
        }
        let requests = (queued + self.answered).min(max_batch);
        (requests > queued.max(1)).then_some(requests)
    }

    /// When the wait for the batch's next request stops paying: the batch
    /// held `first` when the wait began at `start` and has gained `gained`.
    fn pays_until(&self, start: Instant, first: usize, gained: usize) -> Instant {
        let first = u32::try_from(first.max(1)).unwrap_or(u32::MAX);
        let next = u32::try_from(gained + 1).unwrap_or(u32::MAX);
        start + (self.took.saturating_mul(next) / first).min(MOST)
    }
}

/// Takes the next batch: waits for a first request, takes what is
/// queued, then waits for more while that pays (see above). The time
/// spent waiting for more, or `None` once the queue is closed and empty.
pub(super) async fn fill<T>(
    receiver: &mut mpsc::Receiver<T>,
    batch: &mut Vec<T>,
    max_batch: usize,
    last: LastCommit,
) -> Option<Duration> {
    let queued = receiver.len();
    if receiver.recv_many(batch, max_batch).await == 0 {
        return None;
    }
    let Some(requests) = last.gather(queued, max_batch) else {
        return Some(Duration::ZERO);
    };
    let (start, first) = (Instant::now(), batch.len());
    while batch.len() < requests {
        let deadline = last.pays_until(start, first, batch.len() - first);
        let room = max_batch - batch.len();
        match tokio::time::timeout_at(deadline, receiver.recv_many(batch, room)).await {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
    }
    Some(start.elapsed())
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Duration = Duration::from_millis(1);

    fn last(took_ms: u32, answered: usize) -> LastCommit {
        LastCommit {
            took: MS * took_ms,
            answered,
        }
    }

    /// Fills a batch from `queued` requests already there and `later`
    /// ones sent at the given times; the batch and how long it took.
    async fn fill_from(last: LastCommit, queued: u32, later: &[u32]) -> (Vec<u32>, Duration) {
        let (send, mut receive) = mpsc::channel(64);
        for i in 0..queued {
            send.send(i).await.expect("the queue is open");
        }
        let times = later.to_vec();
        tokio::spawn(async move {
            let start = Instant::now();
            for (i, at) in (100..).zip(times) {
                tokio::time::sleep_until(start + MS * at).await;
                send.send(i).await.expect("the queue is open");
            }
            // Keep the queue open until the batch is long gone.
            tokio::time::sleep(MS * 1000).await;
        });
        let start = Instant::now();
        let mut batch = Vec::new();
        let gathered = fill(&mut receive, &mut batch, 256, last).await;
        let took = start.elapsed();
        assert!(gathered.is_some_and(|gathered| gathered <= took));
        (batch, took)
    }

    #[tokio::test(start_paused = true)]
    async fn after_a_slow_commit_the_answered_games_share_the_next_batch() {
        // Nothing queued during a 10 ms commit; its three games come back
        // 1 ms apart, well within what waiting for them saves.
        let (batch, took) = fill_from(last(10, 3), 0, &[0, 1, 2]).await;
        assert_eq!(batch, [100, 101, 102]);
        assert_eq!(took, 2 * MS, "it stops waiting once they are all in");
    }

    #[tokio::test(start_paused = true)]
    async fn stragglers_are_not_waited_for() {
        // Eight queued during an 8 ms commit: waiting 2 ms for a ninth
        // would cost more than it saves, so the batch goes after 1 ms.
        let (batch, took) = fill_from(last(8, 8), 8, &[2]).await;
        assert_eq!(batch, [0, 1, 2, 3, 4, 5, 6, 7]);
        assert_eq!(took, MS);
    }

    #[tokio::test(start_paused = true)]
    async fn after_a_fast_commit_nothing_is_waited_for() {
        let (batch, took) = fill_from(last(4, 3), 0, &[0, 1, 2]).await;
        assert_eq!((batch, took), (vec![100], Duration::ZERO));
    }

    #[tokio::test(start_paused = true)]
    async fn the_wait_has_a_bound() {
        let (batch, took) = fill_from(last(60, 8), 1, &[]).await;
        assert_eq!(batch, [0]);
        assert_eq!(took, MOST);
    }

    #[tokio::test(start_paused = true)]
    async fn after_a_single_answer_nothing_is_waited_for() {
        let (batch, took) = fill_from(last(20, 1), 1, &[1]).await;
        assert_eq!((batch, took), (vec![0], Duration::ZERO));
    }

    #[tokio::test(start_paused = true)]
    async fn a_closed_queue_ends_the_committer() {
        let (send, mut receive) = mpsc::channel::<u32>(16);
        drop(send);
        let mut batch = Vec::new();
        let gathered = fill(&mut receive, &mut batch, 256, last(10, 3)).await;
        assert_eq!(gathered, None);
    }

    #[test]
    fn the_batch_waits_for_the_queued_and_the_answered() {
        // 16 answered while 16 others queued: wait for all 32.
        assert_eq!(last(10, 16).gather(16, 256), Some(32));
        // All 32 answered, none queued: wait for the 32 to come back.
        assert_eq!(last(10, 32).gather(0, 256), Some(32));
    }

    #[test]
    fn a_batch_never_waits_beyond_its_limit() {
        assert_eq!(last(10, 32).gather(0, 8), Some(8));
        assert_eq!(last(10, 32).gather(8, 8), None);
    }
}

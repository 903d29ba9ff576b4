//! How long a committer waits to fill a batch. Where the disk's flush is
//! the limit (a commit takes milliseconds), the games a commit answered
//! send their next moves well within the next commit's time; written at
//! once, the next batch holds only the requests that queued during the
//! last commit, and the batches split into two halves that alternate,
//! each paying a whole flush.
//!
//! So the committer waits for the games it answered, while the wait pays
//! for itself. With `d` what the last commit took, a batch that holds `m`
//! requests `t` after the committer became free commits them at a rate
//! of `m / (t + d)`. Waiting until `t'` for the `r` requests still
//! expected (those that queued during the last commit and as many as it
//! answered) raises that rate if they all come by then:
//! `(m + r) / (t' + d) > m / (t + d)`, that is `t' < t + (t + d) * r / m`.
//! That is the deadline for the next request, set again at each arrival.
//! Early on, with many still expected, the first answered game may take a
//! round trip to come back; at the end, a game far behind the others (one
//! just being replaced by a new one, say) is not waited for and joins the
//! next batch.
//!
//! After a commit short enough to be bound by the CPU rather than the
//! flush, the batch does not wait at all, and no batch waits longer than
//! [`MOST`]. Nothing is acknowledged before its commit either way.

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

/// The longest a batch waits to fill after the committer became free,
/// whatever the commits take.
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

    /// The deadline for the batch's next request: it holds `held`, the
    /// last of them in at `last`, and expects `expected` more; the
    /// committer became free at `free`.
    fn wait_until(&self, free: Instant, last: Instant, held: usize, expected: usize) -> Instant {
        let held = u32::try_from(held.max(1)).unwrap_or(u32::MAX);
        let expected = u32::try_from(expected).unwrap_or(u32::MAX);
        let pays = (last - free + self.took).saturating_mul(expected) / held;
        (last + pays).min(free + MOST)
    }
}

/// Takes the next batch: waits for a first request, takes what is
/// queued, then waits for more while that pays (see above). The time from
/// its first request until it was complete, or `None` once the queue is
/// closed and empty.
pub(super) async fn fill<T>(
    receiver: &mut mpsc::Receiver<T>,
    batch: &mut Vec<T>,
    max_batch: usize,
    last: LastCommit,
) -> Option<Duration> {
    let free = Instant::now();
    let queued = receiver.len();
    if receiver.recv_many(batch, max_batch).await == 0 {
        return None;
    }
    let first = Instant::now();
    let Some(requests) = last.gather(queued, max_batch) else {
        return Some(Duration::ZERO);
    };
    let mut arrived = first;
    while batch.len() < requests {
        let deadline = last.wait_until(free, arrived, batch.len(), requests - batch.len());
        let room = max_batch - batch.len();
        match tokio::time::timeout_at(deadline, receiver.recv_many(batch, room)).await {
            Ok(0) | Err(_) => break,
            Ok(_) => arrived = Instant::now(),
        }
    }
    Some(first.elapsed())
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
    async fn a_game_far_behind_the_others_is_not_waited_for() {
        // Three of four games are back 1 ms apart; at 2 ms the batch of
        // three commits at 3 / (2 + 10) a ms, and a fourth later than
        // 2 + 12 / 3 = 6 ms would lower that rate.
        let (batch, took) = fill_from(last(10, 4), 0, &[0, 1, 2, 9]).await;
        assert_eq!(batch, [100, 101, 102]);
        assert_eq!(took, 6 * MS);
    }

    #[tokio::test(start_paused = true)]
    async fn the_queued_wait_for_the_answered_games_to_come_back() {
        // Eight queued during a 6 ms commit of 24 games, which come back
        // at 3 and 4 ms: waiting for them pays (32 in 4 + 6 ms against 8
        // in 6), though the first takes longer than 6 / 8 ms.
        let later: Vec<u32> = (0..24).map(|i| 3 + i / 12).collect();
        let (batch, took) = fill_from(last(6, 24), 8, &later).await;
        assert_eq!(batch.len(), 32);
        assert_eq!(took, 4 * MS);
    }

    #[tokio::test(start_paused = true)]
    async fn few_answered_behind_many_queued_are_waited_for_briefly() {
        // 30 queued, 2 answered by a 13 ms commit: waiting pays only if
        // they come within 13 * 2 / 30 ms, under 1 ms; they come at 2 ms.
        let (batch, took) = fill_from(last(13, 2), 30, &[2, 2]).await;
        assert_eq!(batch.len(), 30);
        assert!(
            took < 2 * MS,
            "{took:?}: the paused clock's timers round up to 1 ms"
        );
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

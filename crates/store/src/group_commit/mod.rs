//! Group commit: concurrent appends to different games share one durable
//! commit. Callers queue their append and wait; a committer task takes
//! everything queued (up to a limit), writes it as one batch
//! ([`Store::append_batch`]) and answers each caller once the commit that
//! holds its events is done. While one batch is being flushed to disk the
//! next one fills up, so batches grow with the load and an idle service
//! pays no wait; where the flush is slow, a batch also waits a little for
//! the games the last commit answered (`gather`).
//!
//! Answers are those of [`Store::append`]: a conflict or a repeated move id
//! in one game is that caller's answer alone.

mod gather;
pub mod recorded;

use std::sync::Arc;

use tokio::sync::mpsc::error::TrySendError;
use tokio::sync::{Mutex, mpsc, oneshot};
use tokio::time::Instant;

use crate::batch::BatchWriter;
use crate::{AppendRequest, Error, GameId, NewEvent, Store, StoredEvent, ToAct};
use gather::{LastCommit, fill};

/// How many appends a batch holds at most.
pub const DEFAULT_MAX_BATCH: usize = 256;

/// Queued appends beyond which an append is shed ([`Error::Overloaded`]):
/// sixteen full batches, far more than a closed group of games keeps in
/// flight, so only load beyond what the database takes on fills it.
const QUEUE: usize = 16 * DEFAULT_MAX_BATCH;

type Answer = oneshot::Sender<Result<Vec<StoredEvent>, Error>>;

/// A handle to queue appends; cheap to clone. The committers stop when the
/// last handle is dropped (after answering what was queued).
#[derive(Debug, Clone)]
pub struct GroupCommit {
    queue: mpsc::Sender<(AppendRequest, Answer)>,
}

impl GroupCommit {
    /// Starts `committers` committer tasks on the current Tokio runtime
    /// (0: as many as suit the machine and the database,
    /// [`Store::group_committers`]), each writing batches of at most
    /// `max_batch` appends. One committer already overlaps work: requests
    /// queue while it writes a batch, and it keeps one core busy; more
    /// split the queue into smaller batches, each a statement and commit
    /// of its own (docs/performance.md).
    pub fn start(store: Store, committers: usize, max_batch: usize) -> Self {
        let (queue, receiver) = mpsc::channel(QUEUE);
        let receiver = Arc::new(Mutex::new(receiver));
        let committers = match committers {
            0 => store.group_committers(),
            n => n,
        };
        for _ in 0..committers {
            tokio::spawn(commit_batches(
                store.clone(),
                receiver.clone(),
                max_batch.max(1),
            ));
        }
        Self { queue }
    }

    /// As [`Store::append_to_act`], answered after the commit holding the
    /// events; [`Error::Overloaded`] at once, with nothing written, while
    /// the queue is full.
    #[tracing::instrument(skip_all, fields(%game_id, expected_seq))]
    pub async fn append(
        &self,
        game_id: GameId,
        expected_seq: u64,
        events: Vec<NewEvent>,
        to_act: Option<ToAct>,
    ) -> Result<Vec<StoredEvent>, Error> {
        let (answer, answered) = oneshot::channel();
        let request = AppendRequest {
            game_id,
            expected_seq,
            events,
            to_act,
        };
        queue(&self.queue, (request, answer))?;
        answered
            .await
            .map_err(|_| Error::Invalid("group commit stopped"))?
    }
}

/// Queues `item`, or sheds it while the queue is full.
fn queue<T>(queue: &mpsc::Sender<T>, item: T) -> Result<(), Error> {
    queue.try_send(item).map_err(|e| match e {
        TrySendError::Full(_) => Error::Overloaded,
        TrySendError::Closed(_) => Error::Invalid("group commit stopped"),
    })
}

/// One committer: takes what is queued, commits it, answers, repeats.
async fn commit_batches(
    store: Store,
    receiver: Arc<Mutex<mpsc::Receiver<(AppendRequest, Answer)>>>,
    max_batch: usize,
) {
    let mut batch = Vec::with_capacity(max_batch);
    let mut writer = BatchWriter::new(store);
    let mut last = LastCommit::default();
    loop {
        let gathered = {
            let mut receiver = receiver.lock().await;
            match fill(&mut receiver, &mut batch, max_batch, last).await {
                Some(gathered) => gathered,
                None => return,
            }
        };
        let (requests, answers): (Vec<AppendRequest>, Vec<Answer>) = batch.drain(..).unzip();
        let start = Instant::now();
        let results = writer.append(&requests).await;
        last = LastCommit {
            took: start.elapsed(),
            answered: requests.len(),
        };
        recorded::commit(requests.len(), gathered, last.took);
        for (answer, result) in answers.into_iter().zip(results) {
            // The caller may have gone (cancelled); its events stay stored.
            let _ = answer.send(result);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_queue_sheds_and_a_closed_one_says_so() {
        let (send, receive) = mpsc::channel(1);
        assert!(queue(&send, 1).is_ok());
        assert!(matches!(queue(&send, 2), Err(Error::Overloaded)));
        drop(receive);
        assert!(matches!(queue(&send, 3), Err(Error::Invalid(_))));
    }
}

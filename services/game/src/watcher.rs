//! The tasks of the fan-out (`feed`): a publisher per game and viewer,
//! and each WatchGame stream's watcher.

use std::sync::Arc;

use skit_gateway::Shared;
use skit_proto::v1::View;
use skit_store::GameId;
use tokio_util::sync::CancellationToken;

use crate::convert;
use crate::feed::{Frame, Frames, Publisher, Step, Viewer, step};
use crate::games::Games;
use crate::metrics;

/// The frames of `viewer`'s views of the game, starting their publisher if
/// none runs.
pub fn frames(games: &Arc<Games>, id: GameId, viewer: Viewer) -> Frames {
    games.subscribe_frames(id, viewer, |publisher, start| {
        tokio::spawn(publish(games.clone(), id, viewer, publisher, start));
    })
}

/// Builds and sends `viewer`'s frame of each version after `start` (the
/// version the game was known at when its first watcher subscribed) until
/// nobody watches or the game is over.
pub async fn publish(
    games: Arc<Games>,
    id: GameId,
    viewer: Viewer,
    publisher: Publisher,
    start: u64,
) {
    let mut latest = games.watch(id);
    let mut last = start;
    loop {
        latest.borrow_and_update();
        let Ok(live) = games.lock(id).await else {
            // Watchers find the error themselves (`Watcher`).
            break;
        };
        let over = live.is_over();
        let view = (live.version > last).then(|| convert::view(&live, viewer, Some(last)));
        // Never held while waiting below: every move needs the lock.
        drop(live);
        if let Some(view) = view {
            metrics::watch_view_built(true);
            let frame = Frame {
                version: view.version,
                after: last,
                over,
                view: Shared::new(view),
            };
            last = frame.version;
            publisher.send_replace(Some(Arc::new(frame)));
        }
        if over {
            break;
        }
        tokio::select! {
            changed = latest.changed() => if changed.is_err() { break },
            () = publisher.closed() => {
                if games.retire(id, viewer, &publisher, false) {
                    return;
                }
            }
        }
    }
    games.retire(id, viewer, &publisher, true);
}

/// One WatchGame stream: shared frames while it keeps up, its own view
/// when behind.
pub struct Watcher {
    games: Arc<Games>,
    id: GameId,
    viewer: Viewer,
    sent: Option<u64>,
    frames: Frames,
    looked: bool,
    done: bool,
    /// Ends the stream when the instance shuts down.
    draining: CancellationToken,
}

impl Watcher {
    /// A stream of `viewer`'s views after `from_version` (from the start
    /// when `None`), until the game is over or `draining` is cancelled.
    pub fn new(
        games: Arc<Games>,
        id: GameId,
        viewer: Viewer,
        from_version: Option<u64>,
        draining: CancellationToken,
    ) -> Self {
        let frames = frames(&games, id, viewer);
        Self {
            games,
            id,
            viewer,
            sent: from_version,
            frames,
            looked: false,
            done: false,
            draining,
        }
    }

    /// The next view to send; `None` once the game is over and sent.
    pub async fn next(&mut self) -> Option<Result<Arc<Shared<View>>, skit_api::ApiError>> {
        while !self.done && !self.draining.is_cancelled() {
            let frame = self.frames.borrow_and_update().clone();
            match step(self.sent, frame.as_deref(), self.looked) {
                Step::Shared => {
                    let frame = frame?;
                    self.sent = Some(frame.version);
                    self.done = frame.over;
                    return Some(Ok(frame.view.clone()));
                }
                Step::Own => {
                    self.looked = true;
                    let live = match self.games.lock(self.id).await {
                        Ok(live) => live,
                        Err(error) => {
                            self.done = true;
                            return Some(Err(error));
                        }
                    };
                    self.done = live.is_over();
                    if self.sent.is_none_or(|s| live.version > s) {
                        let view = convert::view(&live, self.viewer, self.sent);
                        drop(live);
                        metrics::watch_view_built(false);
                        self.sent = Some(view.version);
                        return Some(Ok(Shared::new(view)));
                    }
                }
                Step::Wait => {}
            }
            if self.done {
                break;
            }
            let changed = tokio::select! {
                changed = self.frames.changed() => changed,
                () = self.draining.cancelled() => break,
            };
            if changed.is_err() {
                // The publisher stopped (the game failed to load, or it
                // ended): look again, with a new one.
                self.frames = frames(&self.games, self.id, self.viewer);
                self.looked = false;
            }
        }
        None
    }
}

//! Fan-out of a game's views to its watchers (WatchGame over gRPC,
//! gRPC-Web and Server-Sent Events). Per game and viewer (a seat, or every
//! spectator) one task follows the game and builds each new version's view
//! once, as a [`Frame`]; every watcher of that viewer gets the same frame,
//! and so the same encoded bytes ([`Shared`]), through a `watch` channel.
//! The channel holds the newest frame only: a watcher that reads slowly
//! skips to the latest version, and one that never reads holds one frame,
//! not a queue.
//!
//! A frame's view carries the history since the frame before it. A
//! watcher that has seen exactly that gets the frame; one that is behind
//! (it skipped frames, or has just opened) gets a view built for it alone,
//! with the history since what it saw, so no watcher misses an event.

#[cfg(test)]
mod tests;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use skit_engine::Seat;
use skit_gateway::Shared;
use skit_proto::v1::View;
use tokio::sync::watch;

/// Whose view: a seat's, or (`None`) a spectator's.
pub type Viewer = Option<Seat>;

/// One version of one viewer's view, shared by all its watchers.
#[derive(Debug)]
pub struct Frame {
    pub version: u64,
    /// The version the view's history follows: the previous frame's.
    pub after: u64,
    /// The game is over: streams end with this frame.
    pub over: bool,
    pub view: Arc<Shared<View>>,
}

/// The newest frame of one viewer's views (none before the first change).
pub type Frames = watch::Receiver<Option<Arc<Frame>>>;
/// Sends one viewer's frames.
pub type Publisher = watch::Sender<Option<Arc<Frame>>>;

/// A game's running publishers, by viewer.
#[derive(Debug, Default)]
pub struct Feeds(Mutex<HashMap<Viewer, Publisher>>);

impl Feeds {
    /// A receiver of `viewer`'s frames; `start` runs the publisher when
    /// none runs yet.
    pub fn subscribe(&self, viewer: Viewer, start: impl FnOnce(Publisher)) -> Frames {
        let mut feeds = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(publisher) = feeds.get(&viewer) {
            return publisher.subscribe();
        }
        let (publisher, frames) = watch::channel(None);
        feeds.insert(viewer, publisher.clone());
        start(publisher);
        frames
    }

    /// Takes `publisher` out if nobody watches its frames any more (or
    /// `always`, once the game is over); whether it was.
    pub fn retire(&self, viewer: Viewer, publisher: &Publisher, always: bool) -> bool {
        let mut feeds = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        // Under the lock nobody subscribes in between.
        if !always && publisher.receiver_count() > 0 {
            return false;
        }
        if feeds
            .get(&viewer)
            .is_some_and(|p| p.same_channel(publisher))
        {
            feeds.remove(&viewer);
        }
        true
    }

    pub fn is_empty(&self) -> bool {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .is_empty()
    }
}

/// What a watcher does next, given the newest frame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// Send the frame: it follows what the watcher saw.
    Shared,
    /// Send a view built for this watcher: it is behind the frame, or has
    /// seen no frame yet and the game may have moved since it looked.
    Own,
    /// Nothing new: wait for the next frame.
    Wait,
}

/// `sent`: the version the watcher saw last; `looked`: it has built its
/// own view since subscribing.
pub fn step(sent: Option<u64>, frame: Option<&Frame>, looked: bool) -> Step {
    match frame.filter(|f| sent.is_none_or(|s| f.version > s)) {
        Some(f) if sent == Some(f.after) => Step::Shared,
        Some(_) => Step::Own,
        None if !looked => Step::Own,
        None => Step::Wait,
    }
}

//! The fan-out's rules without a game: one publisher per viewer however
//! many watch, a frame goes to the watchers it follows on from, and a
//! watcher that does not read holds the newest frame only.

use std::sync::{Arc, Weak};

use skit_gateway::Shared;
use skit_proto::v1::View;

use super::{Feeds, Frame, Step, step};

fn frame(after: u64, version: u64) -> Arc<Frame> {
    Arc::new(Frame {
        version,
        after,
        over: false,
        view: Shared::new(View {
            version,
            ..View::default()
        }),
    })
}

#[test]
fn a_frame_goes_to_the_watchers_it_follows_on_from() {
    let f = frame(4, 7);
    assert_eq!(step(Some(4), Some(&f), true), Step::Shared);
    // Behind: it missed 5 to 7's predecessor, so it gets its own view.
    assert_eq!(step(Some(2), Some(&f), true), Step::Own);
    // Just opened from the start: the frame holds only the last events.
    assert_eq!(step(None, Some(&f), false), Step::Own);
    // Already saw 7 (its own view was newer than the frame).
    assert_eq!(step(Some(7), Some(&f), true), Step::Wait);
    assert_eq!(step(Some(9), Some(&f), true), Step::Wait);
    // No frame yet: it looks once by itself, then waits.
    assert_eq!(step(Some(3), None, false), Step::Own);
    assert_eq!(step(Some(3), None, true), Step::Wait);
}

#[test]
fn one_publisher_per_viewer_however_many_watch() {
    let feeds = Feeds::default();
    let mut started = Vec::new();
    let mut spectators = Vec::new();
    for _ in 0..100 {
        spectators.push(feeds.subscribe(None, |p| started.push((None, p))));
    }
    let seat = feeds.subscribe(Some(1), |p| started.push((Some(1), p)));
    assert_eq!(
        started.len(),
        2,
        "one publisher for spectators, one for seat 1"
    );

    let (_, publisher) = &started[0];
    publisher.send_replace(Some(frame(0, 3)));
    let got: Vec<Arc<Frame>> = spectators
        .iter_mut()
        .map(|rx| rx.borrow_and_update().clone().expect("a frame"))
        .collect();
    assert!(
        got.windows(2).all(|w| Arc::ptr_eq(&w[0], &w[1])),
        "every spectator holds the same frame"
    );
    let bytes: Vec<_> = got.iter().map(|f| f.view.proto()).collect();
    assert!(
        bytes.windows(2).all(|w| w[0].as_ptr() == w[1].as_ptr()),
        "and the same encoded bytes"
    );
    assert!(seat.borrow().is_none(), "seat 1 saw nothing of it");
}

#[test]
fn a_publisher_stays_while_watched_and_goes_after() {
    let feeds = Feeds::default();
    let mut publishers = Vec::new();
    let watcher = feeds.subscribe(None, |p| publishers.push(p));
    let publisher = publishers.pop().expect("started");
    assert!(!feeds.retire(None, &publisher, false), "still watched");
    assert!(!feeds.is_empty());
    drop(watcher);
    assert!(feeds.retire(None, &publisher, false));
    assert!(feeds.is_empty());
    // The next watcher starts a new one.
    let _again = feeds.subscribe(None, |p| publishers.push(p));
    assert_eq!(publishers.len(), 1);
}

#[test]
fn a_watcher_that_never_reads_holds_the_newest_frame_only() {
    let feeds = Feeds::default();
    let mut publishers = Vec::new();
    let mut idle = feeds.subscribe(None, |p| publishers.push(p));
    let publisher = &publishers[0];
    let mut sent: Vec<Weak<Frame>> = Vec::new();
    for version in 1..=200 {
        let f = frame(version - 1, version);
        sent.push(Arc::downgrade(&f));
        publisher.send_replace(Some(f));
    }
    let alive = sent.iter().filter(|w| w.strong_count() > 0).count();
    assert_eq!(alive, 1, "199 older frames were freed though never read");

    // When it reads at last it skips to version 200, and since the frame
    // follows 199, not the 0 it saw, it gets its own view with the rest.
    let newest = idle.borrow_and_update().clone().expect("a frame");
    assert_eq!(newest.version, 200);
    assert_eq!(step(Some(0), Some(&newest), true), Step::Own);
}

//! What group commit tells operators through the `metrics` facade (the
//! service's `/metrics`): how many appends each commit held, how long its
//! batch waited to fill, and how long the write and its commit took. With
//! no recorder installed the facade drops them.

use std::time::Duration;

use metrics::{Unit, describe_histogram, histogram};

/// Appends per commit.
pub const APPENDS: &str = "skit_group_commit_appends";
/// Time a batch waited for more requests after its first (`gather`).
pub const GATHER: &str = "skit_group_commit_gather_seconds";
/// Time of a batch's write and commit.
pub const COMMIT: &str = "skit_group_commit_seconds";

/// Describes the metrics; call once the recorder is installed.
pub fn describe() {
    describe_histogram!(APPENDS, Unit::Count, "Appends held by each group commit.");
    describe_histogram!(
        GATHER,
        Unit::Seconds,
        "Time a group-commit batch waited for more appends after its first."
    );
    describe_histogram!(
        COMMIT,
        Unit::Seconds,
        "Time a group-commit batch took to write and commit."
    );
}

/// Records one commit. The histograms are looked up each time rather than
/// held: a committer starts before the service installs its recorder, and
/// a handle taken then would stay a no-op. Once per batch, not per move.
pub(super) fn commit(appends: usize, gathered: Duration, took: Duration) {
    histogram!(APPENDS).record(appends as f64);
    histogram!(GATHER).record(gathered.as_secs_f64());
    histogram!(COMMIT).record(took.as_secs_f64());
}

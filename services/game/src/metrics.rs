//! The game service's own figures, recorded through the `metrics` facade
//! into the recorder the gateway installs for `/metrics`: moves applied,
//! moves refused by reason, games held in the cache and views built for
//! watchers. With no recorder installed the facade drops them.

use metrics::{counter, describe_counter, describe_gauge, gauge};

const MOVES: &str = "skit_moves_total";
const REJECTIONS: &str = "skit_rejections_total";
const LIVE_GAMES: &str = "skit_live_games";
const WATCH_VIEWS: &str = "skit_watch_views_built_total";

/// Describes the metrics; call once the recorder is installed.
pub fn describe() {
    describe_counter!(MOVES, "Moves applied.");
    describe_counter!(REJECTIONS, "Moves refused, by reason.");
    describe_gauge!(
        LIVE_GAMES,
        "Games held in this instance's cache (loaded and not yet evicted as idle)."
    );
    describe_counter!(
        WATCH_VIEWS,
        "Views built for WatchGame streams: shared=\"true\" once per version and viewer for all its streams, \"false\" for one stream that was behind or just opened."
    );
}

/// A view built for WatchGame streams: shared by all of one viewer's, or
/// for one stream.
pub fn watch_view_built(shared: bool) {
    counter!(WATCH_VIEWS, "shared" => if shared { "true" } else { "false" }).increment(1);
}

/// One move applied.
pub fn record_move() {
    counter!(MOVES).increment(1);
}

/// One move refused. `reason` is a fixed name (the rule broken, "stale
/// version", ...), never free text, so the label set stays small.
pub fn record_rejection(reason: &'static str) {
    counter!(REJECTIONS, "reason" => reason).increment(1);
}

/// A game was loaded into the instance's cache.
pub fn game_cached() {
    gauge!(LIVE_GAMES).increment(1.0);
}

/// A game left the instance's cache (idle).
pub fn game_uncached() {
    gauge!(LIVE_GAMES).decrement(1.0);
}

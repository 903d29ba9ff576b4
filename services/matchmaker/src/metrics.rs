//! The matchmaker's own figures, beside the HTTP request counts every port
//! records: tickets queued and waiting, how long a ticket waited for its
//! table, and the games created (with how many seats bots took). Recorded
//! through the `metrics` facade; the router's Prometheus recorder renders
//! them at `/metrics`.

use std::time::Duration;

use metrics::{counter, describe_counter, describe_gauge, describe_histogram, gauge, histogram};

const ENQUEUED: &str = "skit_mm_tickets_enqueued_total";
const WAITING: &str = "skit_mm_tickets_waiting";
const WAITED: &str = "skit_mm_ticket_wait_seconds";
const GAMES: &str = "skit_mm_games_created_total";
const BOT_SEATS: &str = "skit_mm_bot_seats_total";

/// Describes the figures (once, at start-up).
pub fn describe() {
    describe_counter!(ENQUEUED, "Tickets queued.");
    describe_gauge!(
        WAITING,
        "Tickets waiting for a table at the last matching round."
    );
    describe_histogram!(
        WAITED,
        "Time from queueing to being seated at a table, in seconds."
    );
    describe_counter!(GAMES, "Games created for formed tables.");
    describe_counter!(BOT_SEATS, "Seats of created games that bots took.");
}

pub fn ticket_enqueued() {
    counter!(ENQUEUED).increment(1);
}

pub fn tickets_waiting(count: usize) {
    gauge!(WAITING).set(count as f64);
}

pub fn ticket_seated(waited: Duration) {
    histogram!(WAITED).record(waited.as_secs_f64());
}

pub fn game_created(bot_seats: usize) {
    counter!(GAMES).increment(1);
    counter!(BOT_SEATS).increment(bot_seats as u64);
}

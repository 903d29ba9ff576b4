//! Postgres' texts of the statements that differ (see [`Dialect`]).

use crate::dialect::Dialect;
use crate::sql::{account_games, game_seat_select, rating_of};

pub(crate) const DIALECT: Dialect = Dialect {
    // The row lock queues joiners of one game, so the count of open seats
    // after a join cannot race with another join.
    lock_game: "SELECT status FROM games WHERE id = $1 FOR UPDATE",
    // Shared: sign-ins of one account do not wait for each other, only a
    // status change (an UPDATE of the row) waits for them, and they for it.
    account_status_locked: "SELECT status FROM accounts WHERE id = $1 FOR SHARE",
    // An advisory lock: the quotas of the matchmaker's tickets have no
    // row of their own to lock (the accounts live in the game service).
    lock_quota: Some("SELECT pg_advisory_xact_lock($1, $2)"),
    // Two games sharing a player cannot both start from the same rating.
    rating_for_update: rating_of!(" FOR UPDATE"),
    season_rating_for_update: "SELECT account_id, mu, sigma, games FROM season_ratings \
         WHERE season_id = $1 AND period_start = $2 AND account_id = $3 FOR UPDATE",
    lower_clock: "INSERT INTO clocks (game_id, deadline, version) VALUES ($1, $2, $3) \
         ON CONFLICT (game_id) DO UPDATE SET deadline = LEAST(clocks.deadline, excluded.deadline)",
    games_for_account: GAMES_FOR_ACCOUNT_BY_KEY,
    running_games_for_account: RUNNING_GAMES_FOR_ACCOUNT_BY_KEY,
};

/// Every game the account sits in, newest first, each looked up by its key
/// (`LIMIT 1` keeps the lookup from becoming a join, which a plan made on
/// a young table runs as a scan of every game).
pub(crate) const GAMES_FOR_ACCOUNT_BY_KEY: &str = game_seat_select!(
    "(SELECT g.* FROM (",
    account_games!(""),
    ") mine \
     CROSS JOIN LATERAL (SELECT * FROM games WHERE id = mine.game_id LIMIT 1) g)"
);

/// [`GAMES_FOR_ACCOUNT_BY_KEY`] of the games not yet over.
pub(crate) const RUNNING_GAMES_FOR_ACCOUNT_BY_KEY: &str = game_seat_select!(
    "(SELECT g.* FROM (",
    account_games!(" AND NOT over"),
    ") mine \
     CROSS JOIN LATERAL (SELECT * FROM games WHERE id = mine.game_id LIMIT 1) g)"
);

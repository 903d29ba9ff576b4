//! SQLite's texts of the statements that differ (see [`Dialect`]).

use crate::dialect::Dialect;
use crate::sql::{RATING_OF, account_games, game_seat_select};

pub(crate) const DIALECT: Dialect = Dialect {
    // No lock needed: a write transaction (`BEGIN IMMEDIATE`) holds the
    // whole database, so joiners, sign-ins, quota checks and rating
    // updates already queue.
    lock_game: "SELECT status FROM games WHERE id = $1",
    account_status_locked: "SELECT status FROM accounts WHERE id = $1",
    lock_quota: None,
    rating_for_update: RATING_OF,
    season_rating_for_update: "SELECT account_id, mu, sigma, games FROM season_ratings \
         WHERE season_id = $1 AND period_start = $2 AND account_id = $3",
    // SQLite's two-argument `MIN` is Postgres' `LEAST`.
    lower_clock: "INSERT INTO clocks (game_id, deadline, version) VALUES ($1, $2, $3) \
         ON CONFLICT (game_id) DO UPDATE SET deadline = MIN(clocks.deadline, excluded.deadline)",
    games_for_account: GAMES_FOR_ACCOUNT,
    running_games_for_account: RUNNING_GAMES_FOR_ACCOUNT,
};

/// Every game the account sits in, newest first.
pub(crate) const GAMES_FOR_ACCOUNT: &str = game_seat_select!(
    "(SELECT * FROM games WHERE id IN (SELECT game_id FROM (",
    account_games!(""),
    ")))"
);

/// [`GAMES_FOR_ACCOUNT`] of the games not yet over.
pub(crate) const RUNNING_GAMES_FOR_ACCOUNT: &str = game_seat_select!(
    "(SELECT * FROM games WHERE id IN (SELECT game_id FROM (",
    account_games!(" AND NOT over"),
    ")))"
);

//! The statements whose text differs between the backends. Each backend
//! fills one [`Dialect`] in (`postgres/dialect.rs`, `sqlite/dialect.rs`);
//! the code that runs them is written once.

/// One backend's texts; parameters are the same on both.
#[derive(Debug)]
pub(crate) struct Dialect {
    /// A game's status (`$1`: its id), read so that other joiners of the
    /// game wait until this transaction ends.
    pub lock_game: &'static str,
    /// An account's status (`$1`: its id), read so that a change of its
    /// status waits until this transaction ends (and one under way is
    /// waited for, and its result read).
    pub account_status_locked: &'static str,
    /// Holds an account's lock on its quotas (`$1`: which quotas, `$2`:
    /// the account, both 32-bit) until the transaction ends; `None` where
    /// a write transaction holds the whole database anyway.
    pub lock_quota: Option<&'static str>,
    /// A rating (`$1` account, `$2` ruleset key), read so that other
    /// updates of it wait until this transaction ends.
    pub rating_for_update: &'static str,
    /// One season rating (`$1` season, `$2` period start, `$3` account),
    /// locked where the backend locks rows.
    pub season_rating_for_update: &'static str,
    /// Creates a game's clock row (`$1` game, `$2` deadline, `$3` version)
    /// or moves its deadline earlier, never later.
    pub lower_clock: &'static str,
    /// Every game an account (`$1`) sits in, newest first, at most `$2`.
    pub games_for_account: &'static str,
    /// As `games_for_account`, only games not yet over.
    pub running_games_for_account: &'static str,
}

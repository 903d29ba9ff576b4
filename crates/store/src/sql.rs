//! The SQL both backends run. SQLite accepts Postgres' `$1` placeholders, so
//! one text serves both; the few statements that differ are each backend's
//! [`crate::dialect::Dialect`], built where they can be from the macros here.

/// The columns an [`crate::rows::AccountRow`] reads.
macro_rules! account_columns {
    () => {
        "id, name, kind, token_hash, created_at, house_bot, status, status_reason, owner_id"
    };
}
pub(crate) use account_columns;

pub(crate) const INSERT_ACCOUNT: &str = concat!(
    "INSERT INTO accounts (name, kind, token_hash, created_at) \
     VALUES ($1, $2, $3, $4) RETURNING ",
    account_columns!()
);

/// Sets who runs an account just created (in its transaction).
pub(crate) const SET_OWNER: &str = concat!(
    "UPDATE accounts SET owner_id = $2 WHERE id = $1 RETURNING ",
    account_columns!()
);

/// Accounts of one kind (`$1` NULL: every kind), oldest first.
pub(crate) const ACCOUNTS_BY_KIND: &str = concat!(
    "SELECT ",
    account_columns!(),
    " FROM accounts WHERE $1 IS NULL OR kind = $1 ORDER BY id LIMIT $2"
);

/// The house bots, oldest first (one range of their partial index).
pub(crate) const HOUSE_BOTS: &str = concat!(
    "SELECT ",
    account_columns!(),
    " FROM accounts WHERE house_bot ORDER BY id LIMIT $1"
);

pub(crate) const ACCOUNT_BY_ID: &str = concat!(
    "SELECT ",
    account_columns!(),
    " FROM accounts WHERE id = $1"
);

pub(crate) const ACCOUNT_BY_TOKEN_HASH: &str = concat!(
    "SELECT ",
    account_columns!(),
    " FROM accounts WHERE token_hash = $1"
);

/// An account created for a client's request (`crate::account_request`).
pub(crate) const INSERT_ACCOUNT_FOR_REQUEST: &str = concat!(
    "INSERT INTO accounts (name, kind, token_hash, created_at, request_key, sealed_token, \
     sealed_refresh) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ",
    account_columns!()
);

/// The account created for a request key, with its sealed tokens last.
pub(crate) const ACCOUNT_BY_REQUEST_KEY: &str = concat!(
    "SELECT ",
    account_columns!(),
    ", sealed_token, sealed_refresh FROM accounts WHERE request_key = $1"
);

/// Marks (`$2` true) or unmarks a bot account as a house bot; no row for
/// another kind of account.
pub(crate) const SET_HOUSE_BOT: &str = concat!(
    "UPDATE accounts SET house_bot = $2 WHERE id = $1 AND kind = 'bot' RETURNING ",
    account_columns!()
);

pub(crate) const INSERT_GAME: &str = "INSERT INTO games (id, ruleset, ruleset_key, players, \
     created_by, seed, commitment, status, rated, created_at, request_id) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)";

/// A seat, with its game's creation time (for listing an account's games).
pub(crate) const INSERT_SEAT: &str =
    "INSERT INTO seats (game_id, seat, account_id, game_created_at) VALUES ($1, $2, $3, $4)";

/// A game's columns and its seats, one row per seat, for `games_from_rows`.
macro_rules! game_seat_select {
    ($($games:expr),+ $(,)?) => {
        concat!(
            "SELECT g.id, g.ruleset, g.ruleset_key, g.created_by, g.seed, g.commitment, \
             g.status, g.rated, g.created_at, g.finished_at, s.seat, s.account_id FROM ",
            $($games),+,
            " g JOIN seats s ON s.game_id = g.id ORDER BY g.created_at DESC, g.id, s.seat"
        )
    };
}
pub(crate) use game_seat_select;

pub(crate) const GAME_BY_ID: &str = game_seat_select!("(SELECT * FROM games WHERE id = $1)");

/// The games an account sits in, newest first, at most `$2`: the seats'
/// own index range (`seats_newest`, or `seats_running` with
/// `AND NOT over`), never every seat the account ever held.
macro_rules! account_games {
    ($filter:literal) => {
        concat!(
            "SELECT DISTINCT game_id, game_created_at FROM seats WHERE account_id = $1",
            $filter,
            " ORDER BY game_created_at DESC, game_id LIMIT $2"
        )
    };
}
pub(crate) use account_games;

/// A rating (`$1` account, `$2` ruleset key), then `$lock` (a string
/// literal): how the backend holds the row for an update, if it must.
macro_rules! rating_of {
    ($lock:literal) => {
        concat!(
            "SELECT account_id, ruleset_key, mu, sigma, games, updated_at \
             FROM ratings WHERE account_id = $1 AND ruleset_key = $2",
            $lock
        )
    };
}
pub(crate) use rating_of;

pub(crate) const RATING_OF: &str = rating_of!("");

/// Games waiting for players, newest first.
pub(crate) const OPEN_GAMES: &str = game_seat_select!(
    "(SELECT * FROM games WHERE status = 'open' ORDER BY created_at DESC, id LIMIT $1)"
);

/// A game's seats and who holds them, by the seats' key only. A join
/// reads these rather than asking for "the seat of account a" or "the
/// open seats of game g": both conditions also match the account-first
/// indexes (`seats_newest`), which a plan made on a young table may pick,
/// and then every join reads every seat the account (or every open seat)
/// ever had, so creating and joining slowed as games accumulated.
pub(crate) const SEATS_OF_GAME: &str =
    "SELECT seat, account_id FROM seats WHERE game_id = $1 ORDER BY seat";

/// Takes seat `$3`, if still open: `account_id IS NULL` is what makes two
/// joiners unable to take one seat.
pub(crate) const TAKE_SEAT: &str = "UPDATE seats SET account_id = $2 \
     WHERE game_id = $1 AND seat = $3 AND account_id IS NULL RETURNING seat";

pub(crate) const ACTIVATE_GAME: &str =
    "UPDATE games SET status = 'active' WHERE id = $1 AND status = 'open'";

/// Idempotent: finishing twice keeps the first finish time.
pub(crate) const FINISH_GAME: &str = "UPDATE games SET status = 'over', \
     finished_at = COALESCE(finished_at, $2) WHERE id = $1 RETURNING id";

/// Active games whose last event says nobody may act (`to_act` 0).
pub(crate) const ENDED_UNMARKED: &str = "SELECT g.id FROM games g WHERE g.status = 'active' \
     AND (SELECT e.to_act FROM events e WHERE e.game_id = g.id ORDER BY e.seq DESC LIMIT 1) = 0 \
     ORDER BY g.created_at, g.id LIMIT $1";

/// With [`FINISH_GAME`], in its transaction: the seats stop counting as
/// running for ListGames.
pub(crate) const FINISH_SEATS: &str = "UPDATE seats SET over = TRUE WHERE game_id = $1";

pub(crate) const INSERT_EVENT: &str = "INSERT INTO events \
     (game_id, seq, kind, payload, move_id, created_at, to_act) \
     VALUES ($1, $2, $3, $4, $5, $6, $7) \
     RETURNING game_id, seq, kind, payload, move_id, created_at";

pub(crate) const EVENT_BY_MOVE_ID: &str = "SELECT game_id, seq, kind, payload, move_id, \
     created_at FROM events WHERE game_id = $1 AND move_id = $2";

pub(crate) const LAST_SEQ: &str = "SELECT MAX(seq) FROM events WHERE game_id = $1";

pub(crate) const LOAD_EVENTS: &str = "SELECT game_id, seq, kind, payload, move_id, created_at \
     FROM events WHERE game_id = $1 AND seq >= $2 ORDER BY seq";

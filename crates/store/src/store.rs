//! [`Store`]: one type for the service, whichever database the URL names.

use std::future::Future;
use std::pin::Pin;

use tokio::sync::broadcast;

use crate::{
    Account, AccountId, AccountKind, Appended, Error, Game, GameId, Joined, NewAccount, NewEvent,
    NewGame, PgStore, SqliteStore, StoredEvent,
};

/// The event log and tables, on Postgres or SQLite. Cheap to clone (each
/// backend is a connection pool); clones share notifications.
#[derive(Debug, Clone)]
pub enum Store {
    Postgres(PgStore),
    Sqlite(SqliteStore),
}

/// Calls the same method on whichever backend this is.
macro_rules! dispatch {
    ($self:ident.$method:ident($($arg:expr),*)) => {
        match $self {
            Store::Postgres(s) => s.$method($($arg),*).await,
            Store::Sqlite(s) => s.$method($($arg),*).await,
        }
    };
}

impl Store {
    /// Connects by URL scheme (`postgres://`, `postgresql://` or `sqlite:`)
    /// and brings the schema up to date.
    pub async fn connect(url: &str) -> Result<Self, Error> {
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Ok(Self::Postgres(PgStore::connect(url).await?))
        } else if url.starts_with("sqlite:") {
            Ok(Self::Sqlite(SqliteStore::connect(url).await?))
        } else {
            Err(Error::UnsupportedUrl)
        }
    }

    /// As [`Store::connect`], with at most `max_connections` pooled
    /// Postgres connections (SQLite keeps its default: one writer anyway).
    pub async fn connect_sized(url: &str, max_connections: u32) -> Result<Self, Error> {
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Ok(Self::Postgres(
                PgStore::connect_sized(url, max_connections).await?,
            ))
        } else {
            Self::connect(url).await
        }
    }

    /// How many appends to write at once when each is a commit of its own
    /// (group commit off), each by a task that keeps a connection: one on
    /// SQLite, which has one writer anyway; on Postgres half the pool, so
    /// reads always find a connection.
    pub fn solo_writers(&self) -> usize {
        match self {
            Self::Postgres(s) => {
                let pooled = s.pool().options().get_max_connections();
                usize::try_from(pooled / 2).unwrap_or(1).max(1)
            }
            Self::Sqlite(_) => 1,
        }
    }

    /// Whether the database answers: `SELECT 1` on a pooled connection
    /// (for the health service; it fails while the server is down or
    /// refuses connections).
    pub async fn ping(&self) -> Result<(), Error> {
        match self {
            Self::Postgres(s) => {
                sqlx::query("SELECT 1").execute(s.pool()).await?;
            }
            Self::Sqlite(s) => {
                sqlx::query("SELECT 1").execute(s.pool()).await?;
            }
        }
        Ok(())
    }

    /// [`Store::ping`] as a function a task can own and call again and
    /// again (a health check's loop).
    pub fn pinger(
        &self,
    ) -> impl FnMut() -> Pin<Box<dyn Future<Output = Result<(), Error>> + Send>> + Send + 'static
    {
        let store = self.clone();
        move || {
            let store = store.clone();
            Box::pin(async move { store.ping().await })
        }
    }

    /// Waits for open connections to finish and closes them (for SQLite:
    /// releases the file).
    pub async fn close(&self) {
        dispatch!(self.close())
    }

    /// Notices of appends by any instance sharing the database (for SQLite:
    /// this process), starting now.
    pub fn subscribe(&self) -> broadcast::Receiver<Appended> {
        match self {
            Self::Postgres(s) => s.subscribe(),
            Self::Sqlite(s) => s.subscribe(),
        }
    }

    /// Fails with [`Error::TokenTaken`] if the token hash is in use.
    pub async fn create_account(&self, account: NewAccount) -> Result<Account, Error> {
        dispatch!(self.create_account(account))
    }

    pub async fn account(&self, id: AccountId) -> Result<Option<Account>, Error> {
        dispatch!(self.account(id))
    }

    /// Accounts of `kind` (`None`: every kind), oldest first, at most `limit`.
    pub async fn accounts(
        &self,
        kind: Option<AccountKind>,
        limit: u32,
    ) -> Result<Vec<Account>, Error> {
        dispatch!(self.accounts(kind, limit))
    }

    /// Authentication: the account holding this [`crate::token_hash`].
    pub async fn account_by_token_hash(&self, token_hash: &str) -> Result<Option<Account>, Error> {
        dispatch!(self.account_by_token_hash(token_hash))
    }

    /// Creates the game, its seats and its event 0 (`first`) atomically, so
    /// a game never exists without the start of its log.
    pub async fn create_game(&self, game: NewGame, first: NewEvent) -> Result<Game, Error> {
        dispatch!(self.create_game(game, first))
    }

    pub async fn game(&self, id: GameId) -> Result<Option<Game>, Error> {
        dispatch!(self.game(id))
    }

    /// The games `account` sits in, newest first, at most `limit`; finished
    /// ones only with `include_over`, so however many games an account has
    /// finished, its running ones are listed.
    pub async fn games_for_account(
        &self,
        account: AccountId,
        include_over: bool,
        limit: u32,
    ) -> Result<Vec<Game>, Error> {
        dispatch!(self.games_for_account(account, include_over, limit))
    }

    /// Games with an open seat, newest first, at most `limit`.
    pub async fn open_games(&self, limit: u32) -> Result<Vec<Game>, Error> {
        dispatch!(self.open_games(limit))
    }

    /// Seats `account` in the lowest open seat. Two joiners never get one
    /// seat; whoever takes the last one gets `game_full` and the game turns
    /// active. Joining again returns the seat already held.
    pub async fn join_seat(&self, game_id: GameId, account: AccountId) -> Result<Joined, Error> {
        dispatch!(self.join_seat(game_id, account))
    }

    /// Marks the game over (idempotent); its seed may now be revealed.
    pub async fn finish_game(&self, game_id: GameId) -> Result<(), Error> {
        dispatch!(self.finish_game(game_id))
    }

    /// Appends `events` at `expected_seq`, `expected_seq + 1`, ... in one
    /// transaction, all or nothing. `expected_seq` is one past the last event
    /// the caller has seen; otherwise [`Error::Conflict`]. An event whose
    /// move id is already stored gives [`Error::DuplicateMove`] (checked
    /// first, so a retried move is recognised even if the log moved on).
    pub async fn append(
        &self,
        game_id: GameId,
        expected_seq: u64,
        events: &[NewEvent],
    ) -> Result<Vec<StoredEvent>, Error> {
        dispatch!(self.append(game_id, expected_seq, events))
    }

    /// The seq of the game's last event; `None` if there is no such game.
    pub async fn last_seq(&self, game_id: GameId) -> Result<Option<u64>, Error> {
        dispatch!(self.last_seq(game_id))
    }

    /// The game's events from `from_seq` on, in order; empty for an unknown
    /// game.
    pub async fn load_events(
        &self,
        game_id: GameId,
        from_seq: u64,
    ) -> Result<Vec<StoredEvent>, Error> {
        dispatch!(self.load_events(game_id, from_seq))
    }
}

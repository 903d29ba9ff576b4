//! The embedded backend: one SQLite file, so the service runs with no
//! database server. One instance only: notifications stay in-process.

use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
};
use sqlx::types::Json;
use tokio::sync::{Mutex, MutexGuard, broadcast};

use crate::error::is_unique_violation;
use crate::rows::{self, AccountRow, GameSeatRow};
use crate::{
    Account, AccountId, AccountKind, Appended, Error, Game, GameId, Joined, NewAccount, NewEvent,
    NewGame, StoredEvent, sql,
};
pub(crate) use tx::append_in_tx as append_checked;
use tx::{append_in_tx, insert_event, join_in_tx};

#[cfg(all(test, feature = "testing"))]
mod plans;
/// The steps run inside one SQLite transaction (`crate::backend`).
mod tx {
    crate::backend::transaction_steps!(sqlx::SqliteConnection);
}

static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("../../migrations/sqlite");

/// How long a writer waits for another writer before failing.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// SQLite allows one writer; taking the write lock at BEGIN (not at the
/// first write) means a transaction never reads a snapshot it then cannot
/// write on top of, which would fail with SQLITE_BUSY instead of waiting.
pub(crate) const BEGIN_WRITE: &str = "BEGIN IMMEDIATE";

#[derive(Debug, Clone)]
pub struct SqliteStore {
    pub(crate) pool: SqlitePool,
    appended: broadcast::Sender<Appended>,
    /// Turns at SQLite's one writer (see [`SqliteStore::write_turn`]).
    writer: Arc<Mutex<()>>,
}

impl SqliteStore {
    /// Opens (with `mode=rwc` in the URL: creates) the file and migrates it.
    pub async fn connect(url: &str) -> Result<Self, Error> {
        let options = SqliteConnectOptions::from_str(url)?
            // WAL lets readers run beside the writer; FULL syncs the WAL on
            // every commit, so an acknowledged move survives a power cut.
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Full)
            .foreign_keys(true)
            .busy_timeout(BUSY_TIMEOUT);
        let pool = SqlitePoolOptions::new().connect_with(options).await?;
        MIGRATOR.run(&pool).await?;
        let (appended, _) = broadcast::channel(crate::NOTICE_BUFFER);
        Ok(Self {
            pool,
            appended,
            writer: Arc::new(Mutex::new(())),
        })
    }

    /// A turn at SQLite's one writer, first come first served; every write
    /// of this store takes one before it begins. SQLite itself lets waiting
    /// writers poll (its busy handler sleeps and retries), so under a
    /// steady stream of group commits a lone write, such as a game's
    /// finish, lost the race for a second or more.
    pub(crate) async fn write_turn(&self) -> MutexGuard<'_, ()> {
        self.writer.lock().await
    }

    /// The pool, for store modules that keep their SQL outside this file.
    pub(crate) fn pool(&self) -> &SqlitePool {
        &self.pool
    }

    pub async fn close(&self) {
        self.pool.close().await;
    }

    pub fn subscribe(&self) -> broadcast::Receiver<Appended> {
        self.appended.subscribe()
    }

    pub(crate) fn notify(&self, game_id: GameId, seq: u64) {
        // No receivers is fine: nobody is watching this game.
        let _ = self.appended.send(Appended { game_id, seq });
    }

    pub async fn create_account(&self, account: NewAccount) -> Result<Account, Error> {
        let _turn = self.write_turn().await;
        let row: AccountRow = sqlx::query_as(sql::INSERT_ACCOUNT)
            .bind(account.name)
            .bind(account.kind.as_str())
            .bind(account.token_hash)
            .bind(rows::now())
            .fetch_one(&self.pool)
            .await
            .map_err(|e| match is_unique_violation(&e) {
                true => Error::TokenTaken,
                false => e.into(),
            })?;
        row.try_into()
    }

    pub async fn account(&self, id: AccountId) -> Result<Option<Account>, Error> {
        let row: Option<AccountRow> = sqlx::query_as(sql::ACCOUNT_BY_ID)
            .bind(id.0)
            .fetch_optional(&self.pool)
            .await?;
        row.map(TryInto::try_into).transpose()
    }

    pub async fn accounts(
        &self,
        kind: Option<AccountKind>,
        limit: u32,
    ) -> Result<Vec<Account>, Error> {
        let rows: Vec<AccountRow> = sqlx::query_as(sql::ACCOUNTS_BY_KIND)
            .bind(kind.map(AccountKind::as_str))
            .bind(i64::from(limit))
            .fetch_all(&self.pool)
            .await?;
        rows.into_iter().map(TryInto::try_into).collect()
    }

    pub async fn account_by_token_hash(&self, token_hash: &str) -> Result<Option<Account>, Error> {
        let row: Option<AccountRow> = sqlx::query_as(sql::ACCOUNT_BY_TOKEN_HASH)
            .bind(token_hash)
            .fetch_optional(&self.pool)
            .await?;
        row.map(TryInto::try_into).transpose()
    }

    pub async fn create_game(&self, game: NewGame, first: NewEvent) -> Result<Game, Error> {
        let request_id = game.request_id.clone();
        let game = rows::new_game_row(game)?;
        let _turn = self.write_turn().await;
        let mut tx = self.pool.begin_with(BEGIN_WRITE).await?;
        let id = game.id.to_string();
        sqlx::query(sql::INSERT_GAME)
            .bind(&id)
            .bind(Json(&game.ruleset))
            .bind(&game.ruleset_key)
            .bind(rows::seat_to_db(game.seats.len())?)
            .bind(game.created_by.0)
            .bind(game.seed.expose())
            .bind(&game.commitment)
            .bind(game.status.as_str())
            .bind(game.rated)
            .bind(game.created_at)
            .bind(request_id)
            .execute(&mut *tx)
            .await
            .map_err(crate::request_id::explain_insert)?;
        for (seat, account) in game.seats.iter().enumerate() {
            sqlx::query(sql::INSERT_SEAT)
                .bind(&id)
                .bind(rows::seat_to_db(seat)?)
                .bind(account.map(|a| a.0))
                .bind(game.created_at)
                .execute(&mut *tx)
                .await?;
        }
        insert_event(&mut tx, game.id, 0, &first).await?;
        tx.commit().await?;
        self.notify(game.id, 0);
        Ok(game)
    }

    pub async fn game(&self, id: GameId) -> Result<Option<Game>, Error> {
        let rows: Vec<GameSeatRow> = sqlx::query_as(sql::GAME_BY_ID)
            .bind(id.to_string())
            .fetch_all(&self.pool)
            .await?;
        Ok(rows::games_from_rows(rows)?.pop())
    }

    pub async fn games_for_account(
        &self,
        account: AccountId,
        include_over: bool,
        limit: u32,
    ) -> Result<Vec<Game>, Error> {
        let query = match include_over {
            true => sql::GAMES_FOR_ACCOUNT,
            false => sql::RUNNING_GAMES_FOR_ACCOUNT,
        };
        let rows: Vec<GameSeatRow> = sqlx::query_as(query)
            .bind(account.0)
            .bind(i64::from(limit))
            .fetch_all(&self.pool)
            .await?;
        rows::games_from_rows(rows)
    }

    pub async fn open_games(&self, limit: u32) -> Result<Vec<Game>, Error> {
        let rows: Vec<GameSeatRow> = sqlx::query_as(sql::OPEN_GAMES)
            .bind(i64::from(limit))
            .fetch_all(&self.pool)
            .await?;
        rows::games_from_rows(rows)
    }

    pub async fn join_seat(&self, game_id: GameId, account: AccountId) -> Result<Joined, Error> {
        // The immediate transaction serializes joiners, so the count of open
        // seats below cannot race with another join.
        let _turn = self.write_turn().await;
        let mut tx = self.pool.begin_with(BEGIN_WRITE).await?;
        let status: Option<String> = sqlx::query_scalar("SELECT status FROM games WHERE id = $1")
            .bind(game_id.to_string())
            .fetch_optional(&mut *tx)
            .await?;
        let status = status.ok_or(Error::GameNotFound(game_id))?;
        let joined = join_in_tx(&mut tx, game_id, account, &status).await?;
        tx.commit().await?;
        // A waiting ListGames may now have a game, or a turn, to report.
        self.notify(game_id, 0);
        Ok(joined)
    }

    pub async fn finish_game(&self, game_id: GameId) -> Result<(), Error> {
        let _turn = self.write_turn().await;
        let mut tx = self.pool.begin_with(BEGIN_WRITE).await?;
        let updated: Option<String> = sqlx::query_scalar(sql::FINISH_GAME)
            .bind(game_id.to_string())
            .bind(rows::now())
            .fetch_optional(&mut *tx)
            .await?;
        updated.ok_or(Error::GameNotFound(game_id))?;
        sqlx::query(sql::FINISH_SEATS)
            .bind(game_id.to_string())
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    pub async fn append(
        &self,
        game_id: GameId,
        expected_seq: u64,
        events: &[NewEvent],
    ) -> Result<Vec<StoredEvent>, Error> {
        rows::validate_append(events)?;
        let _turn = self.write_turn().await;
        let mut tx = self.pool.begin_with(BEGIN_WRITE).await?;
        let stored = match append_in_tx(&mut tx, game_id, expected_seq, events).await {
            Ok(stored) => stored,
            // The immediate transaction makes this unreachable in practice;
            // kept so a violation is still answered, not a 500.
            Err(Error::Database(e)) if is_unique_violation(&e) => {
                drop(tx);
                return Err(self.explain_conflict(game_id, events).await);
            }
            Err(e) => return Err(e),
        };
        tx.commit().await?;
        if let Some(last) = stored.last() {
            self.notify(game_id, last.seq);
        }
        Ok(stored)
    }

    crate::backend::event_log_reads!();
}

#[cfg(all(test, feature = "testing"))]
mod tests {
    #![allow(clippy::unwrap_used)]

    use crate::Store;
    use crate::testing::TestDb;

    /// The durability settings reach every pooled connection.
    #[tokio::test]
    async fn connections_are_durable() {
        let db = TestDb::sqlite();
        let Store::Sqlite(store) = db.connect().await.unwrap() else {
            panic!("not a SQLite store");
        };
        let mut conn = store.pool.acquire().await.unwrap();
        let journal = sqlx::query_scalar::<_, String>("PRAGMA journal_mode");
        assert_eq!(journal.fetch_one(&mut *conn).await.unwrap(), "wal");
        let synchronous = sqlx::query_scalar::<_, i64>("PRAGMA synchronous");
        assert_eq!(
            synchronous.fetch_one(&mut *conn).await.unwrap(),
            2,
            "2 is FULL"
        );
        let foreign_keys = sqlx::query_scalar::<_, i64>("PRAGMA foreign_keys");
        assert_eq!(foreign_keys.fetch_one(&mut *conn).await.unwrap(), 1);
    }
}

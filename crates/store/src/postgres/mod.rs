//! The server backend: Postgres, shared by any number of service instances.
//! Appends notify every instance through `LISTEN`/`NOTIFY`.

use std::str::FromStr;
use std::sync::Arc;

use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};
use sqlx::types::Json;
use tokio::sync::broadcast;

use crate::batch::Append;
use crate::batch::postgres::PgRounds;
use crate::batch::round::append_round;
use crate::pg_listener::{self, ListenerTask};
use crate::pg_notifier::Notifier;

use crate::error::is_unique_violation;
use crate::rows::{self, AccountRow, GameSeatRow};
use crate::{
    Account, AccountId, AccountKind, Appended, Error, Game, GameId, Joined, NewAccount, NewEvent,
    NewGame, StoredEvent, sql,
};
use tx::{append_in_tx, insert_event, join_in_tx};

#[cfg(all(test, feature = "testing"))]
mod plans;
/// The steps run inside one Postgres transaction (`crate::backend`).
mod tx {
    crate::backend::transaction_steps!(sqlx::PgConnection);
}

static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("../../migrations/postgres");

/// sqlx's default pool size.
const DEFAULT_MAX_CONNECTIONS: u32 = 10;

/// Notices are short statements; a few connections carry them all.
const NOTIFY_CONNECTIONS: u32 = 4;

/// Every prepared statement runs its generic plan from the first call.
/// By default Postgres plans a statement afresh on each call while that
/// looks cheaper than the generic plan, and for a statement over
/// `unnest`ed arrays (the guarded append) it always does: a custom plan
/// knows the arrays' lengths. Planning was about a third of Postgres' CPU
/// when each move commits alone. Our statements are key look-ups, and the
/// generic plans of the hot ones are tested never to scan a table
/// (`plans.rs`), so the plan that is tested is the plan that runs.
const PLAN_CACHE_MODE: (&str, &str) = ("plan_cache_mode", "force_generic_plan");

/// Locks the game row, so joiners of one game queue up and the count of
/// open seats after a join cannot race with another join.
const LOCK_GAME: &str = "SELECT status FROM games WHERE id = $1 FOR UPDATE";

#[derive(Debug, Clone)]
pub struct PgStore {
    pub(crate) pool: PgPool,
    /// For append notices only: `synchronous_commit` off, as a notice is a
    /// hint that needs no disk flush (see `pg_listener`).
    notify_pool: PgPool,
    /// Sends append notices on `notify_pool`, merged under load.
    notifier: Notifier,
    appended: broadcast::Sender<Appended>,
    /// Forwards notifications into `appended`; stopped with the last clone.
    _listener: Arc<ListenerTask>,
}

impl PgStore {
    /// Connects, migrates (under sqlx's advisory lock, so instances starting
    /// together are safe) and starts listening before returning, so no
    /// append made after `connect` returns is missed.
    pub async fn connect(url: &str) -> Result<Self, Error> {
        // A server configured with synchronous_commit off could lose
        // acknowledged moves on a crash; insist on it for our sessions.
        Self::connect_sized(url, DEFAULT_MAX_CONNECTIONS).await
    }

    /// As [`PgStore::connect`], with at most `max_connections` pooled
    /// connections for queries and appends.
    pub async fn connect_sized(url: &str, max_connections: u32) -> Result<Self, Error> {
        let base = PgConnectOptions::from_str(url)?;
        let options = base
            .clone()
            .options([("synchronous_commit", "on"), PLAN_CACHE_MODE]);
        let pool = PgPoolOptions::new()
            .max_connections(max_connections)
            .connect_with(options)
            .await?;
        let notify_pool = PgPoolOptions::new()
            .max_connections(NOTIFY_CONNECTIONS)
            .connect_lazy_with(base.options([("synchronous_commit", "off")]));
        MIGRATOR.run(&pool).await?;
        let (appended, _) = broadcast::channel(crate::NOTICE_BUFFER);
        let listener = pg_listener::start(&pool, appended.clone()).await?;
        Ok(Self {
            pool,
            notifier: Notifier::start(notify_pool.clone()),
            notify_pool,
            appended,
            _listener: Arc::new(listener),
        })
    }

    /// The pool, for store modules that keep their SQL outside this file.
    pub(crate) fn pool(&self) -> &PgPool {
        &self.pool
    }

    pub async fn close(&self) {
        self.notify_pool.close().await;
        self.pool.close().await;
    }

    pub fn subscribe(&self) -> broadcast::Receiver<Appended> {
        self.appended.subscribe()
    }

    pub async fn create_account(&self, account: NewAccount) -> Result<Account, Error> {
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
        let mut tx = self.pool.begin().await?;
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
        self.notify_appended(vec![(game.id, 0)]);
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
            true => sql::GAMES_FOR_ACCOUNT_BY_KEY,
            false => sql::RUNNING_GAMES_FOR_ACCOUNT_BY_KEY,
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
        let mut tx = self.pool.begin().await?;
        let status: Option<String> = sqlx::query_scalar(LOCK_GAME)
            .bind(game_id.to_string())
            .fetch_optional(&mut *tx)
            .await?;
        let status = status.ok_or(Error::GameNotFound(game_id))?;
        let joined = join_in_tx(&mut tx, game_id, account, &status).await?;
        tx.commit().await?;
        // A waiting ListGames may now have a game, or a turn, to report.
        self.notify_appended(vec![(game_id, 0)]);
        Ok(joined)
    }

    pub async fn finish_game(&self, game_id: GameId) -> Result<(), Error> {
        let mut tx = self.pool.begin().await?;
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

    /// Tells every instance (this one too) which games grew, after the
    /// commit, without holding up the answers: a notice is only a hint,
    /// and a lost one costs listeners nothing but a re-read on their next
    /// look.
    pub(crate) fn notify_appended(&self, notices: Vec<(GameId, u64)>) {
        self.notifier.send(notices);
    }

    /// One append as a round of one (see `batch`): usually one guarded
    /// insert, no transaction round trips.
    pub async fn append(
        &self,
        game_id: GameId,
        expected_seq: u64,
        events: &[NewEvent],
    ) -> Result<Vec<StoredEvent>, Error> {
        let append = Append {
            game_id,
            expected_seq,
            events,
        };
        let mut rounds = PgRounds::new(self.clone());
        let mut answers = append_round(&mut rounds, &[append]).await;
        answers
            .pop()
            .unwrap_or(Err(Error::Invalid("request not answered")))
    }

    /// Checks and appends in one transaction; answers a unique violation
    /// (a race with another appender) with what won it.
    pub(crate) async fn append_in_transaction(
        &self,
        game_id: GameId,
        expected_seq: u64,
        events: &[NewEvent],
    ) -> Result<Vec<StoredEvent>, Error> {
        rows::validate_append(events)?;
        let mut tx = self.pool.begin().await?;
        let stored = match append_in_tx(&mut tx, game_id, expected_seq, events).await {
            Ok(stored) => stored,
            // Two appenders passed the checks at once; the loser lands here
            // once the winner commits.
            Err(Error::Database(e)) if is_unique_violation(&e) => {
                drop(tx);
                return Err(self.explain_conflict(game_id, events).await);
            }
            Err(e) => return Err(e),
        };
        tx.commit().await?;
        // The round it belongs to sends the notice.
        Ok(stored)
    }

    crate::backend::event_log_reads!();
}

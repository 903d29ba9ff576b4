//! Games and their seats as the lobby sees them: creating a game with its
//! first event, reading and listing games, taking seats, finishing.

use sqlx::types::Json;

use crate::bot_games;
use crate::db::Tx;
use crate::dialect::Dialect;
use crate::event_log::insert_event;
use crate::holdings::{GameQuotas, check_games};
use crate::rows::{self, GameSeatRow};
use crate::{
    AccountId, Appended, Error, Game, GameId, GameStatus, Joined, NewEvent, NewGame, Store, ToAct,
    sql,
};

impl Store {
    /// Creates the game, its seats and its event 0 (`first`) atomically, so
    /// a game never exists without the start of its log.
    pub async fn create_game(&self, game: NewGame, first: NewEvent) -> Result<Game, Error> {
        self.create_game_within(game, first, GameQuotas::default())
            .await
    }

    /// As [`Self::create_game`], unless its creator holds one of `quotas`
    /// ([`Error::QuotaExceeded`], creating nothing): counted and created
    /// in one transaction under the creator's quota lock. A game created
    /// full of bots is checked against `quotas.bot_games_per_day` for
    /// each of their owners ([`Error::BotGamesExceeded`]).
    pub async fn create_game_within(
        &self,
        game: NewGame,
        first: NewEvent,
        quotas: GameQuotas,
    ) -> Result<Game, Error> {
        let request_id = game.request_id.clone();
        let to_act = game.to_act.clone();
        let game = rows::new_game_row(game)?;
        let id = game.id.to_string();
        let mut tx = self.db.begin().await?;
        check_games(&mut tx, self.db.dialect(), game.created_by, quotas, true).await?;
        let params = (
            &id,
            Json(&game.ruleset),
            &game.ruleset_key,
            rows::seat_to_db(game.seats.len())?,
            game.created_by.0,
            game.seed.expose(),
            &game.commitment,
            game.status.as_str(),
            game.rated,
            game.created_at,
            request_id,
        );
        tx.execute(sql::INSERT_GAME, params)
            .await
            .map_err(crate::request_id::explain_insert)?;
        for (seat, account) in game.seats.iter().enumerate() {
            let params = (
                &id,
                rows::seat_to_db(seat)?,
                account.map(|a| a.0),
                game.created_at,
            );
            tx.execute(sql::INSERT_SEAT, params).await?;
        }
        if game.seats.iter().all(Option::is_some) {
            let cap = quotas.bot_games_per_day;
            bot_games::check_and_record(&mut tx, self.db.dialect(), &id, cap).await?;
        }
        let mask = ToAct::mask(to_act.as_ref());
        insert_event(&mut tx, game.id, 0, &first, mask).await?;
        tx.commit().await?;
        self.db.notify(vec![Appended {
            to_act: to_act.map(|t| t.accounts),
            ..Appended::new(game.id, 0)
        }]);
        Ok(game)
    }

    pub async fn game(&self, id: GameId) -> Result<Option<Game>, Error> {
        let rows: Vec<GameSeatRow> = self
            .db
            .fetch_all(sql::GAME_BY_ID, (id.to_string(),))
            .await?;
        Ok(rows::games_from_rows(rows)?.pop())
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
        let dialect = self.db.dialect();
        let query = match include_over {
            true => dialect.games_for_account,
            false => dialect.running_games_for_account,
        };
        let params = (account.0, i64::from(limit));
        let rows: Vec<GameSeatRow> = self.db.fetch_all(query, params).await?;
        rows::games_from_rows(rows)
    }

    /// Games with an open seat, newest first, at most `limit`.
    pub async fn open_games(&self, limit: u32) -> Result<Vec<Game>, Error> {
        let params = (i64::from(limit),);
        let rows: Vec<GameSeatRow> = self.db.fetch_all(sql::OPEN_GAMES, params).await?;
        rows::games_from_rows(rows)
    }

    /// Seats `account` in the lowest open seat. Two joiners never get one
    /// seat; whoever takes the last one gets `game_full` and the game turns
    /// active. Joining again returns the seat already held.
    pub async fn join_seat(&self, game_id: GameId, account: AccountId) -> Result<Joined, Error> {
        self.join_seat_within(game_id, account, GameQuotas::default())
            .await
    }

    /// As [`Self::join_seat`], unless taking a seat would give `account`
    /// more than `quotas.open_games` games not over
    /// ([`Error::QuotaExceeded`], taking nothing): counted and taken in one
    /// transaction under the account's quota lock. Taking the last seat of
    /// a table of bots is checked against `quotas.bot_games_per_day` for
    /// each of their owners ([`Error::BotGamesExceeded`]).
    pub async fn join_seat_within(
        &self,
        game_id: GameId,
        account: AccountId,
        quotas: GameQuotas,
    ) -> Result<Joined, Error> {
        let mut tx = self.db.begin().await?;
        let dialect = self.db.dialect();
        let status: Option<(String,)> = tx
            .fetch_optional(dialect.lock_game, (game_id.to_string(),))
            .await?;
        let (status,) = status.ok_or(Error::GameNotFound(game_id))?;
        let quotas = GameQuotas {
            games_per_hour: None,
            ..quotas
        };
        let joined = join_in_tx(&mut tx, dialect, game_id, account, &status, quotas).await?;
        tx.commit().await?;
        // A waiting ListGames may now have a game, or a turn, to report.
        self.db.notify(vec![Appended::new(game_id, 0)]);
        Ok(joined)
    }

    /// Games still marked active whose last append left nobody to act: an
    /// ending stored without its mark (a crash, or a refused
    /// [`Store::finish_game`], between the two), oldest first. Candidates
    /// only: the caller replays each to see that it is over.
    pub async fn ended_unmarked_games(&self, limit: u32) -> Result<Vec<GameId>, Error> {
        let ids: Vec<(String,)> = self
            .db
            .fetch_all(sql::ENDED_UNMARKED, (i64::from(limit),))
            .await?;
        ids.iter().map(|(id,)| rows::parse_game_id(id)).collect()
    }

    /// Marks the game over (idempotent); its seed may now be revealed.
    pub async fn finish_game(&self, game_id: GameId) -> Result<(), Error> {
        let id = game_id.to_string();
        let mut tx = self.db.begin().await?;
        let updated: Option<(String,)> = tx
            .fetch_optional(sql::FINISH_GAME, (&id, rows::now()))
            .await?;
        updated.ok_or(Error::GameNotFound(game_id))?;
        tx.execute(sql::FINISH_SEATS, (&id,)).await?;
        tx.commit().await?;
        Ok(())
    }
}

/// Seats `account` unless it already sits in the game or holds one of
/// `quotas`; the caller's transaction, which read the game's `status` with
/// the dialect's `lock_game`, keeps other joiners out meanwhile.
async fn join_in_tx(
    tx: &mut Tx<'_>,
    dialect: &Dialect,
    game_id: GameId,
    account: AccountId,
    status: &str,
    quotas: GameQuotas,
) -> Result<Joined, Error> {
    let id = game_id.to_string();
    let seats: Vec<(i32, Option<i64>)> = tx.fetch_all(sql::SEATS_OF_GAME, (&id,)).await?;
    let seated = seats.iter().find(|(_, holder)| *holder == Some(account.0));
    if let Some(&(seat, _)) = seated {
        // A retried join: answer with the seat already held.
        let seat = rows::seat_from_db(seat)?;
        return Ok(Joined {
            seat,
            game_full: false,
        });
    }
    if status != GameStatus::Open.as_str() {
        return Err(Error::NoOpenSeat(game_id));
    }
    check_games(tx, dialect, account, quotas, false).await?;
    let mut open = seats.iter().filter(|(_, holder)| holder.is_none());
    let (lowest, _) = open.next().ok_or(Error::NoOpenSeat(game_id))?;
    let left = open.count();
    let taken: Option<(i32,)> = tx
        .fetch_optional(sql::TAKE_SEAT, (&id, account.0, *lowest))
        .await?;
    let (seat,) = taken.ok_or(Error::NoOpenSeat(game_id))?;
    let seat = rows::seat_from_db(seat)?;
    if left == 0 {
        bot_games::check_and_record(tx, dialect, &id, quotas.bot_games_per_day).await?;
        tx.execute(sql::ACTIVATE_GAME, (&id,)).await?;
    }
    Ok(Joined {
        seat,
        game_full: left == 0,
    })
}

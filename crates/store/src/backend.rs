//! What both backends run word for word, written once as macros that
//! `postgres/` and `sqlite/` expand over their own connection type. Code
//! generic over sqlx's `Database` would need, on every function, a bound
//! for each type bound into a statement or decoded from its rows.

/// The steps run inside one transaction: the caller begins and commits
/// it, so each step sees and writes one consistent state. Expands to a
/// module's items; `$conn` is the backend's connection (a `Transaction`
/// derefs to it).
macro_rules! transaction_steps {
    ($conn:ty) => {
        use serde_json::Value;
        use sqlx::types::Json;

        use $crate::rows::{self, EventRow};
        use $crate::{AccountId, Error, GameId, GameStatus, Joined, NewEvent, StoredEvent, sql};

        pub(crate) async fn insert_event(
            tx: &mut $conn,
            game_id: GameId,
            seq: u64,
            event: &NewEvent,
        ) -> Result<StoredEvent, Error> {
            let row: EventRow = sqlx::query_as(sql::INSERT_EVENT)
                .bind(game_id.to_string())
                .bind(rows::seq_to_db(seq)?)
                .bind(&event.kind)
                .bind(Json::<&Value>(&event.payload))
                .bind(&event.move_id)
                .bind(rows::now())
                .fetch_one(&mut *tx)
                .await?;
            row.try_into()
        }

        /// Checks `expected_seq` and the move ids, then inserts. Reads inside the
        /// write transaction, so nothing can slip in between check and insert.
        pub(crate) async fn append_in_tx(
            tx: &mut $conn,
            game_id: GameId,
            expected_seq: u64,
            events: &[NewEvent],
        ) -> Result<Vec<StoredEvent>, Error> {
            let id = game_id.to_string();
            for move_id in events.iter().filter_map(|e| e.move_id.as_deref()) {
                let row: Option<EventRow> = sqlx::query_as(sql::EVENT_BY_MOVE_ID)
                    .bind(&id)
                    .bind(move_id)
                    .fetch_optional(&mut *tx)
                    .await?;
                if let Some(row) = row {
                    let event = Box::new(row.try_into()?);
                    return Err(Error::DuplicateMove { event });
                }
            }
            let last: Option<i64> = sqlx::query_scalar(sql::LAST_SEQ)
                .bind(&id)
                .fetch_one(&mut *tx)
                .await?;
            let last = last.map(rows::seq_from_db).transpose()?;
            rows::check_expected(game_id, last, expected_seq)?;
            let mut stored = Vec::with_capacity(events.len());
            for (seq, event) in (expected_seq..).zip(events) {
                stored.push(insert_event(tx, game_id, seq, event).await?);
            }
            Ok(stored)
        }

        /// Seats `account` unless it already sits in the game; the caller's
        /// transaction keeps other joiners out meanwhile.
        pub(crate) async fn join_in_tx(
            tx: &mut $conn,
            game_id: GameId,
            account: AccountId,
            status: &str,
        ) -> Result<Joined, Error> {
            let id = game_id.to_string();
            let seated: Option<i32> = sqlx::query_scalar(sql::SEAT_OF_ACCOUNT)
                .bind(&id)
                .bind(account.0)
                .fetch_optional(&mut *tx)
                .await?;
            if let Some(seat) = seated {
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
            let seat: Option<i32> = sqlx::query_scalar(sql::TAKE_SEAT)
                .bind(&id)
                .bind(account.0)
                .fetch_optional(&mut *tx)
                .await?;
            let seat = rows::seat_from_db(seat.ok_or(Error::NoOpenSeat(game_id))?)?;
            let left: i64 = sqlx::query_scalar(sql::OPEN_SEATS_LEFT)
                .bind(&id)
                .fetch_one(&mut *tx)
                .await?;
            if left == 0 {
                sqlx::query(sql::ACTIVATE_GAME)
                    .bind(&id)
                    .execute(&mut *tx)
                    .await?;
            }
            Ok(Joined {
                seat,
                game_full: left == 0,
            })
        }
    };
}
pub(crate) use transaction_steps;

/// The event-log reads of a store, inside its `impl` (`self.pool` is its
/// pool). Paths are the crate's own (`$crate`), as an `impl` cannot hold
/// the `use` lines of `transaction_steps`.
macro_rules! event_log_reads {
    () => {
        /// After a unique violation: which move was already stored, or else how
        /// far the log has got. A move id wins, so retries stay idempotent.
        async fn explain_conflict(
            &self,
            game_id: $crate::GameId,
            events: &[$crate::NewEvent],
        ) -> $crate::Error {
            for move_id in events.iter().filter_map(|e| e.move_id.as_deref()) {
                match self.event_by_move_id(game_id, move_id).await {
                    Ok(Some(event)) => {
                        return $crate::Error::DuplicateMove {
                            event: Box::new(event),
                        };
                    }
                    Ok(None) => {}
                    Err(e) => return e,
                }
            }
            match self.last_seq(game_id).await {
                Ok(Some(current_version)) => $crate::Error::Conflict { current_version },
                Ok(None) => $crate::Error::GameNotFound(game_id),
                Err(e) => e,
            }
        }

        async fn event_by_move_id(
            &self,
            game_id: $crate::GameId,
            move_id: &str,
        ) -> Result<Option<$crate::StoredEvent>, $crate::Error> {
            let row: Option<$crate::rows::EventRow> = sqlx::query_as($crate::sql::EVENT_BY_MOVE_ID)
                .bind(game_id.to_string())
                .bind(move_id)
                .fetch_optional(&self.pool)
                .await?;
            row.map(TryInto::try_into).transpose()
        }

        /// The seq of the game's last event; `None` if there is no such game.
        pub async fn last_seq(
            &self,
            game_id: $crate::GameId,
        ) -> Result<Option<u64>, $crate::Error> {
            let seq: Option<i64> = sqlx::query_scalar($crate::sql::LAST_SEQ)
                .bind(game_id.to_string())
                .fetch_one(&self.pool)
                .await?;
            seq.map($crate::rows::seq_from_db).transpose()
        }

        pub async fn load_events(
            &self,
            game_id: $crate::GameId,
            from_seq: u64,
        ) -> Result<Vec<$crate::StoredEvent>, $crate::Error> {
            let rows: Vec<$crate::rows::EventRow> = sqlx::query_as($crate::sql::LOAD_EVENTS)
                .bind(game_id.to_string())
                .bind($crate::rows::seq_to_db(from_seq)?)
                .fetch_all(&self.pool)
                .await?;
            rows.into_iter().map(TryInto::try_into).collect()
        }
    };
}
pub(crate) use event_log_reads;

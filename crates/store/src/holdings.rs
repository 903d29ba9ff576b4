//! What an account holds or made lately, counted for the services' quotas
//! (open games, games created, tickets enqueued). Counted in the database,
//! so a quota holds however many instances share it.

use std::time::Duration;

use crate::{AccountId, Error, Store, rows};

/// Games the account created or sits in that are not over.
const OPEN_GAMES: &str = "SELECT COUNT(*) FROM (\
     SELECT id FROM games WHERE created_by = $1 AND status <> 'over' \
     UNION SELECT game_id FROM seats WHERE account_id = $1 AND NOT over) AS held";

const GAMES_CREATED_SINCE: &str =
    "SELECT COUNT(*) FROM games WHERE created_by = $1 AND created_at >= $2";

const TICKETS_SINCE: &str =
    "SELECT COUNT(*) FROM tickets WHERE account_id = $1 AND created_at >= $2";

impl Store {
    /// How many games `account` created or sits in that are not over.
    pub async fn open_games_of(&self, account: AccountId) -> Result<u64, Error> {
        let (count,): (i64,) = self.db.fetch_one(OPEN_GAMES, (account.0,)).await?;
        Ok(u64::try_from(count).unwrap_or(0))
    }

    /// How many games `account` created in the last `window`.
    pub async fn games_created_within(
        &self,
        account: AccountId,
        window: Duration,
    ) -> Result<u64, Error> {
        self.count_since(GAMES_CREATED_SINCE, account, window).await
    }

    /// How many tickets `account` enqueued in the last `window`.
    pub async fn tickets_within(&self, account: AccountId, window: Duration) -> Result<u64, Error> {
        self.count_since(TICKETS_SINCE, account, window).await
    }

    async fn count_since(
        &self,
        query: &'static str,
        account: AccountId,
        window: Duration,
    ) -> Result<u64, Error> {
        let since = rows::now() - window;
        let (count,): (i64,) = self.db.fetch_one(query, (account.0, since)).await?;
        Ok(u64::try_from(count).unwrap_or(0))
    }
}

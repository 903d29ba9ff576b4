//! What an account holds or made lately, checked against the services'
//! quotas (open games, games created, tickets enqueued) inside the
//! transaction that would add one. The transaction first takes the
//! account's quota lock, so the count and the write are one step for every
//! request of that account, on every instance sharing the database:
//! concurrent requests cannot all read a count under the limit and all
//! write.

use std::time::Duration;

use crate::db::Tx;
use crate::dialect::Dialect;
use crate::{AccountId, Error, rows};

const HOUR: Duration = Duration::from_secs(60 * 60);

/// Games the account created or sits in that are not over.
const OPEN_GAMES: &str = "SELECT COUNT(*) FROM (\
     SELECT id FROM games WHERE created_by = $1 AND status <> 'over' \
     UNION SELECT game_id FROM seats WHERE account_id = $1 AND NOT over) AS held";

const GAMES_CREATED_SINCE: &str =
    "SELECT COUNT(*) FROM games WHERE created_by = $1 AND created_at >= $2";

const TICKETS_SINCE: &str =
    "SELECT COUNT(*) FROM tickets WHERE account_id = $1 AND created_at >= $2";

/// The game service's quotas a new game or seat is checked against; `None`
/// where none applies (the operator and house bots are exempt, and `0`
/// configures none).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GameQuotas {
    /// Games the account created or sits in that are not over.
    pub open_games: Option<u64>,
    /// Games the account created in the last hour.
    pub games_per_hour: Option<u64>,
    /// Games whose seats are all bots that one owner's bots started in
    /// the last 24 hours: checked for every owner seated when a game's
    /// last seat is filled, whoever fills it (house bots count for
    /// nobody).
    pub bot_games_per_day: Option<u64>,
}

impl GameQuotas {
    fn any(self) -> bool {
        self.open_games.is_some() || self.games_per_hour.is_some()
    }
}

/// Which of an account's quotas a lock guards: its games' (created and
/// sat in), its tickets', or (for an owner) its bots' games against bots.
#[derive(Debug, Clone, Copy)]
pub(crate) enum QuotaLock {
    Games = 1,
    Tickets = 2,
    BotGames = 3,
}

/// Takes the account's `which` lock until `tx` ends, where the backend
/// needs one: a transaction-level advisory lock on Postgres (keyed by the
/// quota and the account id folded to 31 bits: two accounts sharing a key
/// only wait for each other); none on SQLite, whose write transaction
/// holds the whole database already.
pub(crate) async fn lock(
    tx: &mut Tx<'_>,
    dialect: &Dialect,
    which: QuotaLock,
    account: AccountId,
) -> Result<(), Error> {
    if let Some(statement) = dialect.lock_quota {
        let key = i32::try_from(account.0.rem_euclid(1 << 31)).unwrap_or_default();
        tx.execute(statement, (which as i32, key)).await?;
    }
    Ok(())
}

/// [`Error::QuotaExceeded`] if `held` reached `limit`.
fn within(quota: &'static str, limit: u64, held: i64) -> Result<(), Error> {
    let held = u64::try_from(held).unwrap_or(0);
    match held < limit {
        true => Ok(()),
        false => Err(Error::QuotaExceeded { quota, limit, held }),
    }
}

/// Locks the account's games and checks `quotas` for one more game
/// created (`creating`) or seat taken; the caller writes it in `tx`.
pub(crate) async fn check_games(
    tx: &mut Tx<'_>,
    dialect: &Dialect,
    account: AccountId,
    quotas: GameQuotas,
    creating: bool,
) -> Result<(), Error> {
    if !quotas.any() {
        return Ok(());
    }
    lock(tx, dialect, QuotaLock::Games, account).await?;
    if let Some(limit) = quotas.games_per_hour.filter(|_| creating) {
        let since = rows::now() - HOUR;
        let (held,): (i64,) = tx
            .fetch_one(GAMES_CREATED_SINCE, (account.0, since))
            .await?;
        within("games_per_hour", limit, held)?;
    }
    if let Some(limit) = quotas.open_games {
        let (held,): (i64,) = tx.fetch_one(OPEN_GAMES, (account.0,)).await?;
        within("open_games", limit, held)?;
    }
    Ok(())
}

/// Locks the account's tickets and checks that it enqueued fewer than
/// `limit` in the last hour; the caller writes the ticket in `tx`.
pub(crate) async fn check_tickets(
    tx: &mut Tx<'_>,
    dialect: &Dialect,
    account: AccountId,
    limit: Option<u64>,
) -> Result<(), Error> {
    let Some(limit) = limit else {
        return Ok(());
    };
    lock(tx, dialect, QuotaLock::Tickets, account).await?;
    let since = rows::now() - HOUR;
    let (held,): (i64,) = tx.fetch_one(TICKETS_SINCE, (account.0, since)).await?;
    within("tickets_per_hour", limit, held)
}

//! The per-owner daily cap on games between bots. A game whose seats are
//! all bot accounts counts, from the moment its last seat is filled, for
//! every owner of a bot seated in it (an owner's bots, or a bot that is
//! its own owner; house bots count for nobody), for 24 hours (a rolling
//! window). The transaction that fills the last seat takes each owner's
//! lock (lowest owner first, so two such transactions never wait for each
//! other in a circle), counts, and records the game for each owner: the
//! count and the start are one step on every instance sharing the
//! database, and a refusal rolls back the whole create or join.

use std::collections::BTreeSet;
use std::time::Duration;

use time::OffsetDateTime;

use crate::db::Tx;
use crate::dialect::Dialect;
use crate::holdings::{QuotaLock, lock};
use crate::{AccountId, Error, rows};

/// How long a started game counts against its owners.
pub const BOT_GAMES_WINDOW: Duration = Duration::from_secs(24 * 60 * 60);

/// Each seat's account kind, whether it is a house bot, and its owner
/// group; an open seat reads as NULLs.
const SEATED: &str = "SELECT a.kind, a.house_bot, COALESCE(a.owner_id, a.id) \
     FROM seats s LEFT JOIN accounts a ON a.id = s.account_id WHERE s.game_id = $1";

const STARTED_SINCE: &str =
    "SELECT COUNT(*) FROM bot_games WHERE owner_id = $1 AND started_at >= $2";

/// The start that must leave the window before the owner may start one
/// more (`$3`: how many of the window's oldest pass first).
const NTH_STARTED_SINCE: &str = "SELECT started_at FROM bot_games \
     WHERE owner_id = $1 AND started_at >= $2 ORDER BY started_at LIMIT 1 OFFSET $3";

const RECORD: &str = "INSERT INTO bot_games (owner_id, game_id, started_at) VALUES ($1, $2, $3) \
     ON CONFLICT (owner_id, game_id) DO NOTHING";

/// The owners a game between bots counts for; `None` if a person (or an
/// open seat) is at the table.
async fn owners(tx: &mut Tx<'_>, game_id: &str) -> Result<Option<BTreeSet<i64>>, Error> {
    let seated: Vec<(Option<String>, Option<bool>, Option<i64>)> =
        tx.fetch_all(SEATED, (game_id,)).await?;
    let mut owners = BTreeSet::new();
    for (kind, house_bot, owner) in seated {
        if kind.as_deref() != Some("bot") {
            return Ok(None);
        }
        if house_bot != Some(true)
            && let Some(owner) = owner
        {
            owners.insert(owner);
        }
    }
    Ok(Some(owners))
}

/// Checks, for the game `game_id` whose last seat `tx` just filled, that
/// none of its bots' owners started `limit` games between bots in the
/// window, and records the game for each; [`Error::BotGamesExceeded`]
/// (naming the first owner at the cap) otherwise. Games with a person
/// seated pass unchecked.
pub(crate) async fn check_and_record(
    tx: &mut Tx<'_>,
    dialect: &Dialect,
    game_id: &str,
    limit: Option<u64>,
) -> Result<(), Error> {
    let Some(limit) = limit else {
        return Ok(());
    };
    let Some(owners) = owners(tx, game_id).await? else {
        return Ok(());
    };
    let now = rows::now();
    let since = now - BOT_GAMES_WINDOW;
    for &owner in &owners {
        lock(tx, dialect, QuotaLock::BotGames, AccountId(owner)).await?;
    }
    for &owner in &owners {
        let (held,): (i64,) = tx.fetch_one(STARTED_SINCE, (owner, since)).await?;
        let held = u64::try_from(held).unwrap_or(0);
        if held >= limit {
            let passing = i64::try_from(held - limit).unwrap_or(i64::MAX);
            let (oldest,): (OffsetDateTime,) = tx
                .fetch_one(NTH_STARTED_SINCE, (owner, since, passing))
                .await?;
            let frees = oldest + BOT_GAMES_WINDOW - now;
            return Err(Error::BotGamesExceeded {
                owner: AccountId(owner),
                limit,
                held,
                retry_after: Duration::try_from(frees)
                    .unwrap_or_default()
                    .max(Duration::from_millis(1)),
            });
        }
    }
    for &owner in &owners {
        tx.execute(RECORD, (owner, game_id, now)).await?;
    }
    Ok(())
}

//! The revocation feed: an append-only table every instance reads every
//! few hundred milliseconds to drop cached credentials. A row names a
//! credential's hash (revoked, or its expiry changed) or an account (all
//! its credentials, or its standing, changed); the writer appends it in
//! the transaction that made the change.
//!
//! Rows are read by id and, because ids of concurrent transactions may
//! commit out of order on PostgreSQL, also by time: a reader asks again
//! for everything of the last few seconds ([`Store::revocations_since`]).
//! Dropping a cache entry twice costs nothing.

use time::OffsetDateTime;

use crate::db::Tx;
use crate::{AccountId, Error, Store, rows};

const INSERT: &str = "INSERT INTO revocations (token_hash, account_id, at_ms) VALUES ($1, $2, $3)";

const SINCE: &str = "SELECT id, token_hash, account_id FROM revocations \
     WHERE id > $1 OR at_ms >= $2 ORDER BY id";

const LAST: &str = "SELECT MAX(id) FROM revocations";

/// One row of the feed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Revocation {
    pub id: i64,
    /// A credential to forget.
    pub token_hash: Option<String>,
    /// An account all of whose credentials to forget.
    pub account_id: Option<AccountId>,
}

fn millis(t: OffsetDateTime) -> i64 {
    i64::try_from(t.unix_timestamp_nanos() / 1_000_000).unwrap_or(i64::MAX)
}

pub(crate) async fn append_revocation(
    tx: &mut Tx<'_>,
    token_hash: Option<&str>,
    account_id: Option<AccountId>,
) -> Result<(), Error> {
    let params = (token_hash, account_id.map(|a| a.0), millis(rows::now()));
    tx.execute(INSERT, params).await?;
    Ok(())
}

impl Store {
    /// Appends `account_id` to the feed alone (its standing changed, say:
    /// every instance drops what it cached of the account).
    pub async fn announce_account_change(&self, account_id: AccountId) -> Result<(), Error> {
        let mut tx = self.db.begin().await?;
        append_revocation(&mut tx, None, Some(account_id)).await?;
        tx.commit().await?;
        Ok(())
    }

    /// The feed's rows after `after_id`, and every row written at or after
    /// `since` (by the writer's clock), by id.
    pub async fn revocations_since(
        &self,
        after_id: i64,
        since: OffsetDateTime,
    ) -> Result<Vec<Revocation>, Error> {
        let rows: Vec<(i64, Option<String>, Option<i64>)> =
            self.db.fetch_all(SINCE, (after_id, millis(since))).await?;
        Ok(rows
            .into_iter()
            .map(|(id, token_hash, account_id)| Revocation {
                id,
                token_hash,
                account_id: account_id.map(AccountId),
            })
            .collect())
    }

    /// The feed's last id (0 if empty): where a new reader starts.
    pub async fn last_revocation(&self) -> Result<i64, Error> {
        let (last,): (Option<i64>,) = self.db.fetch_one(LAST, ()).await?;
        Ok(last.unwrap_or(0))
    }
}

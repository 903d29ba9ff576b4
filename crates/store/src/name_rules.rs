//! Registered names whose keys were computed under an older rule, and
//! storing the keys the service computes for them now. Only the service
//! knows how a name folds, so it recomputes; the store finds the rows and
//! keeps the keys unique.

use crate::error::is_unique_violation;
use crate::{AccountId, Error, Store};

const NAMES_BEFORE_RULE: &str = "SELECT id, name FROM accounts \
     WHERE name_key IS NOT NULL AND name_rule < $1 ORDER BY id LIMIT $2";

const REKEY: &str =
    "UPDATE accounts SET name_key = $2, name_skeleton = $3, name_rule = $4 WHERE id = $1";

/// Kept under its old key: marked as seen under the new rule, without a
/// skeleton.
const KEEP_KEY: &str = "UPDATE accounts SET name_rule = $2 WHERE id = $1";

/// What became of one name recomputed under a new rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rekeyed {
    /// It holds the new key and skeleton.
    Rekeyed,
    /// Another account holds the new key or skeleton: this one keeps its
    /// old key (and signs in by it) with no skeleton.
    Kept,
}

impl Store {
    /// Up to `limit` registered accounts (id and name) whose keys predate
    /// `rule`, by id.
    pub async fn names_before_rule(
        &self,
        rule: i64,
        limit: u32,
    ) -> Result<Vec<(AccountId, String)>, Error> {
        let rows: Vec<(i64, String)> = self
            .db
            .fetch_all(NAMES_BEFORE_RULE, (rule, i64::from(limit)))
            .await?;
        Ok(rows.into_iter().map(|(id, n)| (AccountId(id), n)).collect())
    }

    /// Stores `key` and `skeleton` for account `id` under `rule`, or, when
    /// another account holds either, marks it under `rule` keeping its key.
    pub async fn rekey_name(
        &self,
        id: AccountId,
        key: &str,
        skeleton: &str,
        rule: i64,
    ) -> Result<Rekeyed, Error> {
        let _turn = self.db.write_turn().await;
        match self.db.execute(REKEY, (id.0, key, skeleton, rule)).await {
            Ok(_) => Ok(Rekeyed::Rekeyed),
            Err(e) if is_unique_violation(&e) => {
                self.db.execute(KEEP_KEY, (id.0, rule)).await?;
                Ok(Rekeyed::Kept)
            }
            Err(e) => Err(e.into()),
        }
    }
}

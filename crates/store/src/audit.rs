//! The audit log: one row per operator action, append-only. Rows are
//! written by the operator actions themselves (`admin.rs`), in the
//! transaction of the action they record, or by [`Store::record_audit`]
//! for an action the store does not make. There is no statement here, or
//! anywhere in the store, that changes or removes a row.

use serde_json::Value;
use sqlx::FromRow;
use sqlx::types::Json;
use time::OffsetDateTime;

use crate::db::Tx;
use crate::rows::{self, parse_game_id};
use crate::{AccountId, Error, GameId, Store};

/// An operator action to record.
#[derive(Debug, Clone, PartialEq)]
pub struct NewAudit {
    /// The operator account that acted.
    pub operator: AccountId,
    /// What it did, snake_case (e.g. `set_account_status`).
    pub action: &'static str,
    pub target_account: Option<AccountId>,
    pub target_game: Option<GameId>,
    /// The operator's reason, as given (may be empty).
    pub reason: String,
    /// What else the action recorded; an object.
    pub details: Value,
}

/// A recorded operator action.
#[derive(Debug, Clone, PartialEq)]
pub struct AuditEntry {
    /// Ascending: a later action has a larger id.
    pub id: i64,
    pub at: OffsetDateTime,
    pub operator: AccountId,
    pub action: String,
    pub target_account: Option<AccountId>,
    pub target_game: Option<GameId>,
    pub reason: String,
    pub details: Value,
}

/// Which entries [`Store::audit_log`] lists; `None` matches any.
#[derive(Debug, Clone, Default)]
pub struct AuditFilter {
    pub operator: Option<AccountId>,
    pub action: Option<String>,
    pub target_account: Option<AccountId>,
    pub target_game: Option<GameId>,
    /// Only entries older than this id (the previous page's last).
    pub before: Option<i64>,
}

const INSERT_AUDIT: &str = "INSERT INTO audit_log \
     (at, operator_id, action, target_account, target_game, reason, details) \
     VALUES ($1, $2, $3, $4, $5, $6, $7)";

/// Newest first; each filter a `NULL`-or-equal test.
const AUDIT_LOG: &str = "SELECT id, at, operator_id, action, target_account, target_game, \
     reason, details FROM audit_log \
     WHERE ($1 IS NULL OR operator_id = $1) AND ($2 IS NULL OR action = $2) \
     AND ($3 IS NULL OR target_account = $3) AND ($4 IS NULL OR target_game = $4) \
     AND ($5 IS NULL OR id < $5) ORDER BY id DESC LIMIT $6";

#[derive(Debug, FromRow)]
struct AuditRow {
    id: i64,
    at: OffsetDateTime,
    operator_id: i64,
    action: String,
    target_account: Option<i64>,
    target_game: Option<String>,
    reason: String,
    details: Json<Value>,
}

impl TryFrom<AuditRow> for AuditEntry {
    type Error = Error;

    fn try_from(r: AuditRow) -> Result<Self, Error> {
        Ok(Self {
            id: r.id,
            at: r.at,
            operator: AccountId(r.operator_id),
            action: r.action,
            target_account: r.target_account.map(AccountId),
            target_game: r.target_game.as_deref().map(parse_game_id).transpose()?,
            reason: r.reason,
            details: r.details.0,
        })
    }
}

/// Appends `audit` in the caller's transaction, so the action and its
/// record commit together or not at all.
pub(crate) async fn insert_audit(tx: &mut Tx<'_>, audit: &NewAudit) -> Result<(), sqlx::Error> {
    let params = (
        rows::now(),
        audit.operator.0,
        audit.action,
        audit.target_account.map(|a| a.0),
        audit.target_game.map(|g| g.to_string()),
        audit.reason.as_str(),
        Json(&audit.details),
    );
    tx.execute(INSERT_AUDIT, params).await?;
    Ok(())
}

impl Store {
    /// Records an action the store did not make itself (one the service
    /// completed elsewhere, e.g. creating an account's credentials).
    pub async fn record_audit(&self, audit: &NewAudit) -> Result<(), Error> {
        let mut tx = self.db.begin().await?;
        insert_audit(&mut tx, audit).await?;
        tx.commit().await?;
        Ok(())
    }

    /// The entries `filter` matches, newest first, at most `limit`.
    pub async fn audit_log(
        &self,
        filter: &AuditFilter,
        limit: u32,
    ) -> Result<Vec<AuditEntry>, Error> {
        let params = (
            filter.operator.map(|a| a.0),
            filter.action.as_deref(),
            filter.target_account.map(|a| a.0),
            filter.target_game.map(|g| g.to_string()),
            filter.before,
            i64::from(limit),
        );
        let rows: Vec<AuditRow> = self.db.fetch_all(AUDIT_LOG, params).await?;
        rows.into_iter().map(TryInto::try_into).collect()
    }
}

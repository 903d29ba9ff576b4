//! Operator actions on the store, each committed with its audit row in one
//! transaction, so none happens unrecorded: an account's status (with its
//! credentials' revocation), the house-bot mark, voiding a game, revoking
//! one credential, resetting a password; and the list of an account's
//! credentials.

use serde_json::json;

use crate::audit::{NewAudit, insert_audit};
use crate::credential::{CredentialRow, credential_columns};
use crate::credentials::{revoke_account_in, revoke_one_in};
use crate::revocations::append_revocation;
use crate::rows::{self, AccountRow};
use crate::{
    Account, AccountId, AccountStatus, Credential, CredentialId, Error, GameId, Store, sql,
};

/// Every credential of an account, live or not, oldest first.
const CREDENTIALS_OF_ACCOUNT: &str = concat!(
    "SELECT ",
    credential_columns!(),
    " FROM credentials WHERE account_id = $1 ORDER BY id"
);

const ACCOUNT_STATUS: &str = "SELECT status FROM accounts WHERE id = $1";

/// Operator accounts keep their status: disabling the last one would lock
/// every operator out.
const SET_ACCOUNT_STATUS: &str = concat!(
    "UPDATE accounts SET status = $2, status_reason = $3 \
     WHERE id = $1 AND kind <> 'operator' RETURNING ",
    sql::account_columns!()
);

/// Marks a game void and unrated unless it is over; no row otherwise.
const VOID_GAME: &str = "UPDATE games SET voided_at = COALESCE(voided_at, $2), rated = FALSE \
     WHERE id = $1 AND status <> 'over' RETURNING id";

/// A new password for an account that signs in with one; no row for an
/// account without a password (guests, bots, devices, identity providers).
const RESET_PASSWORD: &str = concat!(
    "UPDATE accounts SET password_hash = $2 \
     WHERE id = $1 AND password_hash IS NOT NULL RETURNING ",
    sql::account_columns!()
);

const GAME_EXISTS: &str = "SELECT id FROM games WHERE id = $1";

/// What [`Store::void_game`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Voided {
    /// Marked void (now, or by an earlier call) and unrated.
    Voided,
    /// The game is over: its result stands.
    AlreadyOver,
}

impl Store {
    /// Sets account `id`'s status (with the operator's reason) and records
    /// `audit` (its details gain `status`, `previous` and
    /// `credentials_revoked`). Disabling or banning revokes every live
    /// credential of the account (reason `account_disabled`). `None` if
    /// there is no such account, or it is an operator's.
    pub async fn set_account_status(
        &self,
        id: AccountId,
        status: AccountStatus,
        reason: &str,
        audit: &NewAudit,
    ) -> Result<Option<Account>, Error> {
        let mut tx = self.db.begin().await?;
        let previous: Option<(String,)> = tx.fetch_optional(ACCOUNT_STATUS, (id.0,)).await?;
        let reason = match status {
            AccountStatus::Active => "",
            _ => reason,
        };
        let row: Option<AccountRow> = tx
            .fetch_optional(SET_ACCOUNT_STATUS, (id.0, status.as_str(), reason))
            .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        // Disabling ends every credential; any change tells every
        // instance's cache to read the account again (the feed).
        let revoked = match status {
            AccountStatus::Active => {
                append_revocation(&mut tx, None, Some(id)).await?;
                0
            }
            _ => revoke_account_in(&mut tx, id, "account_disabled")
                .await?
                .len(),
        };
        let mut audit = audit.clone();
        audit.details = merged(
            audit.details,
            json!({
                "status": status.as_str(),
                "previous": previous.map(|p| p.0),
                "credentials_revoked": revoked,
            }),
        );
        insert_audit(&mut tx, &audit).await?;
        tx.commit().await?;
        row.try_into().map(Some)
    }

    /// As [`Store::set_house_bot`], recording `audit` with it.
    pub async fn set_house_bot_audited(
        &self,
        id: AccountId,
        house_bot: bool,
        audit: &NewAudit,
    ) -> Result<Option<Account>, Error> {
        let mut tx = self.db.begin().await?;
        let row: Option<AccountRow> = tx
            .fetch_optional(sql::SET_HOUSE_BOT, (id.0, house_bot))
            .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        insert_audit(&mut tx, audit).await?;
        tx.commit().await?;
        row.try_into().map(Some)
    }

    /// Marks game `id` void and unrated, recording `audit`, unless it is
    /// over. The game's log is the service's to end.
    pub async fn void_game(&self, id: GameId, audit: &NewAudit) -> Result<Voided, Error> {
        let text = id.to_string();
        let mut tx = self.db.begin().await?;
        let marked: Option<(String,)> = tx.fetch_optional(VOID_GAME, (&text, rows::now())).await?;
        if marked.is_none() {
            let exists: Option<(String,)> = tx.fetch_optional(GAME_EXISTS, (&text,)).await?;
            return match exists {
                Some(_) => Ok(Voided::AlreadyOver),
                None => Err(Error::GameNotFound(id)),
            };
        }
        insert_audit(&mut tx, audit).await?;
        tx.commit().await?;
        Ok(Voided::Voided)
    }
}

impl Store {
    /// Every credential of the account, live or not, oldest first.
    pub async fn account_credentials(&self, id: AccountId) -> Result<Vec<Credential>, Error> {
        let rows: Vec<CredentialRow> = self.db.fetch_all(CREDENTIALS_OF_ACCOUNT, (id.0,)).await?;
        rows.into_iter().map(TryInto::try_into).collect()
    }

    /// As [`Store::revoke_credential`], recording `audit` with it; `None`
    /// (and no entry) if the account has no such live credential.
    pub async fn revoke_credential_audited(
        &self,
        account: AccountId,
        id: CredentialId,
        reason: &str,
        audit: &NewAudit,
    ) -> Result<Option<Credential>, Error> {
        let mut tx = self.db.begin().await?;
        let Some(revoked) = revoke_one_in(&mut tx, account, id, reason).await? else {
            return Ok(None);
        };
        insert_audit(&mut tx, audit).await?;
        tx.commit().await?;
        Ok(Some(revoked))
    }
}

/// What [`Store::reset_password`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PasswordReset {
    /// The password is replaced and every credential revoked.
    Reset(Account),
    /// The account signs in without a password: nothing changed.
    NoPassword,
    /// There is no such account.
    NoAccount,
}

impl Store {
    /// Replaces account `id`'s password hash and revokes every live
    /// credential it holds (reason `password_reset`), recording `audit`,
    /// all in one transaction. Changes nothing unless the account has a
    /// password.
    pub async fn reset_password(
        &self,
        id: AccountId,
        password_hash: &str,
        audit: &NewAudit,
    ) -> Result<PasswordReset, Error> {
        let mut tx = self.db.begin().await?;
        let row: Option<AccountRow> = tx
            .fetch_optional(RESET_PASSWORD, (id.0, password_hash))
            .await?;
        let Some(row) = row else {
            let exists: Option<(String,)> = tx.fetch_optional(ACCOUNT_STATUS, (id.0,)).await?;
            return Ok(match exists {
                Some(_) => PasswordReset::NoPassword,
                None => PasswordReset::NoAccount,
            });
        };
        let revoked = revoke_account_in(&mut tx, id, "password_reset").await?;
        let mut audit = audit.clone();
        audit.details = merged(
            audit.details,
            json!({ "credentials_revoked": revoked.len() }),
        );
        insert_audit(&mut tx, &audit).await?;
        tx.commit().await?;
        row.try_into().map(PasswordReset::Reset)
    }
}

/// `base`'s fields with `extra`'s added (both objects; else `extra`).
fn merged(base: serde_json::Value, extra: serde_json::Value) -> serde_json::Value {
    match (base, extra) {
        (serde_json::Value::Object(mut base), serde_json::Value::Object(extra)) => {
            base.extend(extra);
            serde_json::Value::Object(base)
        }
        (_, extra) => extra,
    }
}

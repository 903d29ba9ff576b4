//! The credentials table: issuing credentials (with a new account, or to
//! an existing one), finding one by its hash, listing an account's, and
//! ending them. Every write that ends or shortens a credential appends to
//! the revocation feed (`revocations.rs`) in the same transaction, so
//! every instance's cache learns of it.

use crate::credential::{CredentialRow, ROTATED, credential_columns};
use crate::db::Tx;
use crate::revocations::append_revocation;
use crate::rows;
use crate::{
    AccountId, AccountStatus, Credential, CredentialId, CredentialKind, Error, NewCredential,
    RefreshRefusal, Store,
};
use time::OffsetDateTime;

const INSERT: &str = concat!(
    "INSERT INTO credentials (account_id, kind, token_hash, session_id, scopes, label, \
     created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ",
    credential_columns!()
);

const BY_HASH: &str = concat!(
    "SELECT ",
    credential_columns!(),
    " FROM credentials WHERE token_hash = $1"
);

/// The account a token belongs to.
const OWNER_OF_HASH: &str = "SELECT account_id FROM credentials WHERE token_hash = $1";

const OF_KIND: &str = concat!(
    "SELECT ",
    credential_columns!(),
    " FROM credentials WHERE account_id = $1 AND kind = $2 ORDER BY id"
);

/// The refresh tokens of the account's sessions that still hold an
/// unrevoked one (ended sessions stay out however many there were).
const SESSION_REFRESHES: &str = concat!(
    "SELECT ",
    credential_columns!(),
    " FROM credentials WHERE account_id = $1 AND kind = 'refresh' AND session_id IN \
     (SELECT session_id FROM credentials WHERE account_id = $1 AND kind = 'refresh' \
     AND revoked_at IS NULL) ORDER BY id"
);

/// Uses a refresh token: only one of two concurrent uses finds it unrevoked.
const USE_REFRESH: &str = concat!(
    "UPDATE credentials SET revoked_at = $2, revoked_reason = 'rotated' \
     WHERE token_hash = $1 AND kind = 'refresh' AND revoked_at IS NULL RETURNING ",
    credential_columns!()
);

const REVOKE_SESSION: &str = "UPDATE credentials SET revoked_at = $3, revoked_reason = $4 \
     WHERE account_id = $1 AND session_id = $2 AND revoked_at IS NULL RETURNING token_hash";

const REVOKE_ONE: &str = concat!(
    "UPDATE credentials SET revoked_at = $3, revoked_reason = $4 \
     WHERE account_id = $1 AND id = $2 AND revoked_at IS NULL RETURNING ",
    credential_columns!()
);

const REVOKE_ACCOUNT: &str = "UPDATE credentials SET revoked_at = $2, revoked_reason = $3 \
     WHERE account_id = $1 AND revoked_at IS NULL RETURNING token_hash";

const REVOKE_OTHER_OPERATORS: &str = "UPDATE credentials SET revoked_at = $2, \
     revoked_reason = 'operator_rotated' \
     WHERE kind = 'operator' AND token_hash <> $1 AND revoked_at IS NULL RETURNING token_hash";

const PHASE_OUT_OTHER_OPERATORS: &str = "UPDATE credentials SET expires_at = $2 \
     WHERE kind = 'operator' AND token_hash <> $1 AND revoked_at IS NULL \
     AND (expires_at IS NULL OR expires_at > $2) RETURNING token_hash";

const SET_EXPIRY: &str = concat!(
    "UPDATE credentials SET expires_at = $3 \
     WHERE account_id = $1 AND id = $2 AND revoked_at IS NULL RETURNING ",
    credential_columns!()
);

/// One session as its owner sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionSummary {
    pub session_id: String,
    pub created_at: OffsetDateTime,
    /// When its refresh token last rotated (`created_at` if never).
    pub refreshed_at: OffsetDateTime,
    /// When its current refresh token expires.
    pub expires_at: Option<OffsetDateTime>,
}

/// As [`Store::revoke_credential`], in the caller's transaction (an
/// operator's revocation commits with its audit entry).
pub(crate) async fn revoke_one_in(
    tx: &mut Tx<'_>,
    account_id: AccountId,
    id: CredentialId,
    reason: &str,
) -> Result<Option<Credential>, Error> {
    let row: Option<CredentialRow> = tx
        .fetch_optional(REVOKE_ONE, (account_id.0, id.0, rows::now(), reason))
        .await?;
    let Some(row) = row else {
        return Ok(None);
    };
    let revoked = Credential::try_from(row)?;
    append_revocation(tx, Some(&revoked.token_hash), None).await?;
    Ok(Some(revoked))
}

/// As [`Store::revoke_account_credentials`], in the caller's transaction
/// (disabling an account revokes them with its status change).
pub(crate) async fn revoke_account_in(
    tx: &mut Tx<'_>,
    account_id: AccountId,
    reason: &str,
) -> Result<Vec<String>, Error> {
    let params = (account_id.0, rows::now(), reason);
    let hashes: Vec<(String,)> = tx.fetch_all(REVOKE_ACCOUNT, params).await?;
    for (hash,) in &hashes {
        append_revocation(tx, Some(hash), None).await?;
    }
    append_revocation(tx, None, Some(account_id)).await?;
    Ok(hashes.into_iter().map(|(hash,)| hash).collect())
}

/// The status of account `account_id` (`None`: no such account), read
/// with `lock` (the dialect's `account_status_locked`): a status change
/// waits for the caller's transaction, and one under way is waited for.
/// So a credential issued in that transaction either commits first, and
/// the change revokes it, or sees the change and is never issued.
pub(crate) async fn locked_status(
    tx: &mut Tx<'_>,
    lock: &'static str,
    account_id: AccountId,
) -> Result<Option<AccountStatus>, Error> {
    let row: Option<(String,)> = tx.fetch_optional(lock, (account_id.0,)).await?;
    row.map(|(status,)| {
        AccountStatus::parse(&status)
            .ok_or_else(|| Error::Corrupt(format!("account status {status:?}")))
    })
    .transpose()
}

/// [`Error::AccountDisabled`] unless account `account_id` is active, read
/// as [`locked_status`] does.
pub(crate) async fn require_active(
    tx: &mut Tx<'_>,
    lock: &'static str,
    account_id: AccountId,
) -> Result<(), Error> {
    match locked_status(tx, lock, account_id).await? {
        Some(status) if status != AccountStatus::Active => Err(Error::AccountDisabled {
            account: account_id,
            status,
        }),
        _ => Ok(()),
    }
}

pub(crate) async fn insert_credentials(
    tx: &mut Tx<'_>,
    account_id: AccountId,
    credentials: &[NewCredential],
) -> Result<Vec<Credential>, Error> {
    let now = rows::now();
    let mut stored = Vec::with_capacity(credentials.len());
    for c in credentials {
        let params = (
            account_id.0,
            c.kind.as_str(),
            &c.token_hash,
            c.session_id.as_deref(),
            crate::credential::scopes_to_db(&c.scopes),
            c.label.as_deref(),
            now,
            c.expires_at,
        );
        let row: CredentialRow = tx
            .fetch_one(INSERT, params)
            .await
            .map_err(crate::error::explain_token_insert)?;
        stored.push(row.try_into()?);
    }
    Ok(stored)
}

impl Store {
    /// Gives `account_id` the `credentials`, atomically. Fails with
    /// [`Error::TokenTaken`] if a hash is in use, and with
    /// [`Error::AccountDisabled`] (issuing nothing) if the account is
    /// disabled or banned.
    #[tracing::instrument(skip_all, fields(account = %account_id))]
    pub async fn add_credentials(
        &self,
        account_id: AccountId,
        credentials: &[NewCredential],
    ) -> Result<Vec<Credential>, Error> {
        let mut tx = self.db.begin().await?;
        let lock = self.db.dialect().account_status_locked;
        require_active(&mut tx, lock, account_id).await?;
        let stored = insert_credentials(&mut tx, account_id, credentials).await?;
        tx.commit().await?;
        Ok(stored)
    }

    /// Authentication: the credential with this [`crate::token_hash`],
    /// live or not.
    pub async fn credential_by_hash(&self, token_hash: &str) -> Result<Option<Credential>, Error> {
        let row: Option<CredentialRow> = self.db.fetch_optional(BY_HASH, (token_hash,)).await?;
        row.map(TryInto::try_into).transpose()
    }

    /// The account's credentials of `kind`, live or not, oldest first.
    pub async fn credentials_of(
        &self,
        account_id: AccountId,
        kind: CredentialKind,
    ) -> Result<Vec<Credential>, Error> {
        let rows: Vec<CredentialRow> = self
            .db
            .fetch_all(OF_KIND, (account_id.0, kind.as_str()))
            .await?;
        rows.into_iter().map(TryInto::try_into).collect()
    }

    /// The account's sessions whose refresh token is live at `now`, oldest
    /// first.
    pub async fn sessions_of(
        &self,
        account_id: AccountId,
        now: OffsetDateTime,
    ) -> Result<Vec<SessionSummary>, Error> {
        let rows: Vec<CredentialRow> = self
            .db
            .fetch_all(SESSION_REFRESHES, (account_id.0,))
            .await?;
        let mut sessions: Vec<SessionSummary> = Vec::new();
        for row in rows {
            let c = Credential::try_from(row)?;
            let Some(id) = c.session_id.clone() else {
                continue;
            };
            let index = match sessions.iter().position(|s| s.session_id == id) {
                Some(i) => i,
                None => {
                    sessions.push(SessionSummary {
                        session_id: id,
                        created_at: c.created_at,
                        refreshed_at: c.created_at,
                        expires_at: None,
                    });
                    sessions.len() - 1
                }
            };
            let session = &mut sessions[index];
            session.refreshed_at = session.refreshed_at.max(c.created_at);
            if c.revoked_at.is_none() {
                session.expires_at = c.expires_at;
            }
        }
        sessions.retain(|s| s.expires_at.is_none_or(|at| at > now));
        Ok(sessions)
    }

    /// Uses the refresh token `token_hash` once: it is revoked as rotated
    /// and `access` and `refresh` (their session set to its) take its
    /// place, atomically. A token used before revokes its whole session
    /// ([`RefreshRefusal::Reused`]); a disabled or banned account's buys
    /// nothing ([`RefreshRefusal::AccountDisabled`]).
    #[tracing::instrument(skip_all)]
    pub async fn rotate_refresh(
        &self,
        token_hash: &str,
        mut access: NewCredential,
        mut refresh: NewCredential,
    ) -> Result<Result<(Credential, Vec<Credential>), RefreshRefusal>, Error> {
        let now = rows::now();
        let mut tx = self.db.begin().await?;
        // The account's row before the token's, in the order a status
        // change takes them, so the two never wait for each other.
        let owner: Option<(i64,)> = tx.fetch_optional(OWNER_OF_HASH, (token_hash,)).await?;
        if let Some((owner,)) = owner {
            let account = AccountId(owner);
            let lock = self.db.dialect().account_status_locked;
            if let Some(status) = locked_status(&mut tx, lock, account).await?
                && status != AccountStatus::Active
            {
                tx.rollback().await?;
                return Ok(Err(RefreshRefusal::AccountDisabled { account, status }));
            }
        }
        let used: Option<CredentialRow> = tx.fetch_optional(USE_REFRESH, (token_hash, now)).await?;
        if let Some(used) = used {
            let used = Credential::try_from(used)?;
            if used.expired(now) {
                tx.rollback().await?;
                return Ok(Err(RefreshRefusal::Expired));
            }
            access.session_id.clone_from(&used.session_id);
            refresh.session_id.clone_from(&used.session_id);
            let issued = insert_credentials(&mut tx, used.account_id, &[access, refresh]).await?;
            tx.commit().await?;
            return Ok(Ok((used, issued)));
        }
        tx.rollback().await?;
        let Some(known) = self.credential_by_hash(token_hash).await? else {
            return Ok(Err(RefreshRefusal::Unknown));
        };
        if known.kind != CredentialKind::Refresh {
            return Ok(Err(RefreshRefusal::Unknown));
        }
        if known.revoked_reason.as_deref() != Some(ROTATED) {
            return Ok(Err(RefreshRefusal::Revoked));
        }
        if let Some(session) = &known.session_id {
            self.revoke_session(known.account_id, session, "refresh_token_reused")
                .await?;
        }
        Ok(Err(RefreshRefusal::Reused))
    }

    /// Revokes every credential of the account's session `session_id`;
    /// the hashes of those that were live (none: no such live session).
    #[tracing::instrument(skip(self))]
    pub async fn revoke_session(
        &self,
        account_id: AccountId,
        session_id: &str,
        reason: &str,
    ) -> Result<Vec<String>, Error> {
        let params = (account_id.0, session_id, rows::now(), reason);
        self.revoke_returning_hashes(REVOKE_SESSION, params, None)
            .await
    }

    /// Revokes the account's credential `id`; `None` if it has no such live
    /// credential.
    #[tracing::instrument(skip(self))]
    pub async fn revoke_credential(
        &self,
        account_id: AccountId,
        id: CredentialId,
        reason: &str,
    ) -> Result<Option<Credential>, Error> {
        let mut tx = self.db.begin().await?;
        let revoked = revoke_one_in(&mut tx, account_id, id, reason).await?;
        tx.commit().await?;
        Ok(revoked)
    }

    /// Revokes every credential the account holds and tells every cache to
    /// forget the account (also what disabling an account appends); the
    /// hashes of those that were live.
    #[tracing::instrument(skip(self))]
    pub async fn revoke_account_credentials(
        &self,
        account_id: AccountId,
        reason: &str,
    ) -> Result<Vec<String>, Error> {
        let mut tx = self.db.begin().await?;
        let hashes = revoke_account_in(&mut tx, account_id, reason).await?;
        tx.commit().await?;
        Ok(hashes)
    }

    /// Sets the expiry of the account's live credential `id` (an API key
    /// kept for a grace period after its rotation); `None` if it has no
    /// such live credential.
    #[tracing::instrument(skip(self))]
    pub async fn set_credential_expiry(
        &self,
        account_id: AccountId,
        id: CredentialId,
        expires_at: OffsetDateTime,
    ) -> Result<Option<Credential>, Error> {
        let mut tx = self.db.begin().await?;
        let row: Option<CredentialRow> = tx
            .fetch_optional(SET_EXPIRY, (account_id.0, id.0, expires_at))
            .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        let changed = Credential::try_from(row)?;
        append_revocation(&mut tx, Some(&changed.token_hash), None).await?;
        tx.commit().await?;
        Ok(Some(changed))
    }

    /// Makes `operator` (an operator credential of `account_id`) the only
    /// live operator credential: adds it unless its hash is there already,
    /// and revokes every other (`operator_rotated`).
    #[tracing::instrument(skip_all, fields(account = %account_id))]
    pub async fn replace_operator_credential(
        &self,
        account_id: AccountId,
        operator: &NewCredential,
    ) -> Result<usize, Error> {
        let mut tx = self.db.begin().await?;
        let known: Option<CredentialRow> =
            tx.fetch_optional(BY_HASH, (&operator.token_hash,)).await?;
        if known.is_none() {
            insert_credentials(&mut tx, account_id, std::slice::from_ref(operator)).await?;
        }
        let hashes: Vec<(String,)> = tx
            .fetch_all(REVOKE_OTHER_OPERATORS, (&operator.token_hash, rows::now()))
            .await?;
        for (hash,) in &hashes {
            append_revocation(&mut tx, Some(hash), None).await?;
        }
        tx.commit().await?;
        Ok(hashes.len())
    }

    /// As [`Store::replace_operator_credential`] with an overlap: adds
    /// `operator` unless its hash is there already, and makes every other
    /// live operator credential expire at `until` (or keep an earlier
    /// expiry), so old and new are both valid until then: a rotation
    /// while instances restart one at a time refuses nobody. Each phased
    /// out hash goes on the revocation feed, so instances read its expiry
    /// at once. Returns how many were phased out.
    #[tracing::instrument(skip_all, fields(account = %account_id))]
    pub async fn phase_out_operator_credentials(
        &self,
        account_id: AccountId,
        operator: &NewCredential,
        until: OffsetDateTime,
    ) -> Result<usize, Error> {
        let mut tx = self.db.begin().await?;
        let known: Option<CredentialRow> =
            tx.fetch_optional(BY_HASH, (&operator.token_hash,)).await?;
        if known.is_none() {
            insert_credentials(&mut tx, account_id, std::slice::from_ref(operator)).await?;
        }
        let hashes: Vec<(String,)> = tx
            .fetch_all(PHASE_OUT_OTHER_OPERATORS, (&operator.token_hash, until))
            .await?;
        for (hash,) in &hashes {
            append_revocation(&mut tx, Some(hash), None).await?;
        }
        tx.commit().await?;
        Ok(hashes.len())
    }

    /// Runs a revoking `UPDATE ... RETURNING token_hash` and appends each
    /// hash (and `account`, if given) to the feed, in one transaction;
    /// the hashes.
    async fn revoke_returning_hashes(
        &self,
        sql: &'static str,
        params: impl crate::db::Params<'_>,
        account: Option<AccountId>,
    ) -> Result<Vec<String>, Error> {
        let mut tx = self.db.begin().await?;
        let hashes: Vec<(String,)> = tx.fetch_all(sql, params).await?;
        for (hash,) in &hashes {
            append_revocation(&mut tx, Some(hash), None).await?;
        }
        if let Some(account) = account {
            append_revocation(&mut tx, None, Some(account)).await?;
        }
        tx.commit().await?;
        Ok(hashes.into_iter().map(|(hash,)| hash).collect())
    }
}

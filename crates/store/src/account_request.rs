//! Idempotent account creation (CreateGuest): an account created for a
//! client's request keeps that request's key and its tokens (access and
//! refresh) sealed under the request, so a resent request finds the
//! account and can open them again. The values are the service's, opaque
//! here; none is the request id or a token itself.

use sqlx::FromRow;

use crate::credentials::insert_credentials;
use crate::error::is_unique_violation;
use crate::rows::{self, AccountRow};
use crate::sql::{ACCOUNT_BY_REQUEST_KEY, INSERT_ACCOUNT_FOR_REQUEST};
use crate::{Account, Error, NewAccount, NewCredential, Store};

/// What an account created for a request keeps of that request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccountRequest {
    /// Unique among accounts: finds the account again.
    pub key: String,
    /// The account's first access token, sealed so that only the request
    /// opens it.
    pub sealed_token: String,
    /// Its first refresh token, sealed likewise (none for accounts created
    /// before sessions).
    pub sealed_refresh: Option<String>,
}

#[derive(Debug, FromRow)]
struct RequestedRow {
    #[sqlx(flatten)]
    account: AccountRow,
    sealed_token: Option<String>,
    sealed_refresh: Option<String>,
}

impl Store {
    /// Creates `account` for `request`, holding `credentials`, atomically.
    /// Fails with [`Error::DuplicateRequest`] if an account was created for
    /// the same key (a concurrent twin: [`Self::account_by_request_key`]
    /// finds it).
    #[tracing::instrument(skip_all)]
    pub async fn create_account_for_request(
        &self,
        account: NewAccount,
        request: AccountRequest,
        credentials: &[NewCredential],
    ) -> Result<Account, Error> {
        let key = request.key.clone();
        let params = (
            account.name,
            account.kind.as_str(),
            account.token_hash,
            rows::now(),
            request.key,
            request.sealed_token,
            request.sealed_refresh,
        );
        let mut tx = self.db.begin().await?;
        let inserted: Result<AccountRow, sqlx::Error> =
            tx.fetch_one(INSERT_ACCOUNT_FOR_REQUEST, params).await;
        let inserted = match inserted {
            Ok(row) => Ok(Account::try_from(row)?),
            Err(e) => Err(e),
        };
        if let Ok(account) = &inserted {
            insert_credentials(&mut tx, account.id, credentials).await?;
            tx.commit().await?;
        } else {
            tx.rollback().await?;
        }
        match inserted {
            Ok(account) => Ok(account),
            Err(e) if is_unique_violation(&e) => match self.account_by_request_key(&key).await? {
                Some(_) => Err(Error::DuplicateRequest),
                None => Err(Error::TokenTaken),
            },
            Err(e) => Err(e.into()),
        }
    }

    /// The account created for the request `key`, with its sealed token.
    #[tracing::instrument(skip_all)]
    pub async fn account_by_request_key(
        &self,
        key: &str,
    ) -> Result<Option<(Account, AccountRequest)>, Error> {
        let row: Option<RequestedRow> = self
            .db
            .fetch_optional(ACCOUNT_BY_REQUEST_KEY, (key,))
            .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        let sealed_token = row
            .sealed_token
            .ok_or_else(|| Error::Corrupt(format!("account request {key:?} without a token")))?;
        let request = AccountRequest {
            key: key.to_owned(),
            sealed_token,
            sealed_refresh: row.sealed_refresh,
        };
        Ok(Some((row.account.try_into()?, request)))
    }
}

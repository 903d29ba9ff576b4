//! Identities an operator's own identity provider vouches for: a JWT's
//! issuer and subject, and the account they sign in as (created the first
//! time the pair is seen).

use crate::error::is_unique_violation;
use crate::people::INSERT_PERSON;
use crate::rows::{self, AccountRow};
use crate::sql::account_columns;
use crate::{Account, Error, NewAccount, Registration, Store};

const ACCOUNT_BY_IDENTITY: &str = concat!(
    "SELECT ",
    account_columns!(),
    " FROM accounts WHERE id = \
     (SELECT account_id FROM external_identities WHERE issuer = $1 AND subject = $2)"
);

const INSERT_IDENTITY: &str = "INSERT INTO external_identities \
     (issuer, subject, account_id, created_at) VALUES ($1, $2, $3, $4)";

/// Who an identity provider says someone is.
#[derive(Debug, Clone, Copy)]
pub struct Identity<'a> {
    /// The provider (a JWT's `iss`).
    pub issuer: &'a str,
    /// The person at that provider (a JWT's `sub`).
    pub subject: &'a str,
}

impl Store {
    /// The account `identity` signs in as.
    #[tracing::instrument(skip_all)]
    pub async fn account_by_identity(
        &self,
        identity: Identity<'_>,
    ) -> Result<Option<Account>, Error> {
        let row: Option<AccountRow> = self
            .db
            .fetch_optional(ACCOUNT_BY_IDENTITY, (identity.issuer, identity.subject))
            .await?;
        row.map(TryInto::try_into).transpose()
    }

    /// Creates `account` under a registered name for `identity`,
    /// atomically. Fails, creating nothing, with [`Error::IdentityTaken`]
    /// if the identity has an account already (a concurrent first sign-in
    /// won) or with [`Error::NameTaken`] if the name's key is held.
    #[tracing::instrument(skip_all)]
    pub async fn create_identity_account(
        &self,
        account: NewAccount,
        registration: Registration,
        identity: Identity<'_>,
    ) -> Result<Account, Error> {
        let keys = (
            registration.name_key.clone(),
            registration.name_skeleton.clone(),
        );
        let now = rows::now();
        let mut tx = self.db.begin().await?;
        let params = (
            account.name,
            account.kind.as_str(),
            account.token_hash,
            now,
            registration.name_key,
            registration.password_hash,
            registration.name_skeleton,
            registration.name_rule,
        );
        let created: Result<AccountRow, sqlx::Error> = tx.fetch_one(INSERT_PERSON, params).await;
        let row = match created {
            Ok(row) => row,
            Err(e) if is_unique_violation(&e) => {
                tx.rollback().await?;
                return Err(self.taken(&keys.0, &keys.1).await?);
            }
            Err(e) => return Err(e.into()),
        };
        let created: Account = row.try_into()?;
        let params = (identity.issuer, identity.subject, created.id.0, now);
        match tx.execute(INSERT_IDENTITY, params).await {
            Ok(_) => {
                tx.commit().await?;
                Ok(created)
            }
            Err(e) if is_unique_violation(&e) => {
                tx.rollback().await?;
                Err(Error::IdentityTaken)
            }
            Err(e) => Err(e.into()),
        }
    }
}

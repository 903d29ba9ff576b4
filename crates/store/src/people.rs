//! People's accounts: a registered name, unique by its comparison key, and
//! an optional password hash; found again by that key to sign in. The
//! service computes both values (the key's folding and the PHC string): the
//! store only keeps the key unique and the hash as given.

use sqlx::FromRow;

use crate::error::is_unique_violation;
use crate::rows::{self, AccountRow};
use crate::sql::account_columns;
use crate::{Account, AccountId, Error, NewAccount, Store};

/// What registering adds to an account.
#[derive(Debug, Clone)]
pub struct Registration {
    /// The name's comparison key: two names with one key are one name.
    pub name_key: String,
    /// The name's confusable skeleton: two names with one skeleton look
    /// alike, and only one of them may be registered.
    pub name_skeleton: String,
    /// The rule the key and skeleton were computed under.
    pub name_rule: i64,
    /// An argon2 PHC string; `None` for an account that signs in otherwise
    /// (an identity provider's JWT).
    pub password_hash: Option<String>,
}

/// An account with a registered name (and perhaps a password).
pub(crate) const INSERT_PERSON: &str = concat!(
    "INSERT INTO accounts (name, kind, token_hash, created_at, name_key, password_hash, \
     name_skeleton, name_rule) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ",
    account_columns!()
);

const PERSON_BY_NAME_KEY: &str = concat!(
    "SELECT ",
    account_columns!(),
    ", password_hash FROM accounts WHERE name_key = $1"
);

const NAME_KEY_TAKEN: &str = "SELECT id FROM accounts WHERE name_key = $1 OR name_skeleton = $2";

/// Only an active guest is upgraded, so a second upgrade (or one of a
/// player, or of a disabled guest) changes nothing.
const UPGRADE_GUEST: &str = concat!(
    "UPDATE accounts SET kind = 'player', name = $2, name_key = $3, password_hash = $4, \
     name_skeleton = $5, name_rule = $6 WHERE id = $1 AND kind = 'guest' AND status = 'active' RETURNING ",
    account_columns!()
);

#[derive(Debug, FromRow)]
struct PersonRow {
    #[sqlx(flatten)]
    account: AccountRow,
    password_hash: Option<String>,
}

impl Store {
    /// Creates `account` under a registered name. Fails with
    /// [`Error::NameTaken`] if another account holds the name's key.
    #[tracing::instrument(skip_all)]
    pub async fn register(
        &self,
        account: NewAccount,
        registration: Registration,
    ) -> Result<Account, Error> {
        let keys = (
            registration.name_key.clone(),
            registration.name_skeleton.clone(),
        );
        let inserted: Result<AccountRow, sqlx::Error> = {
            let _turn = self.db.write_turn().await;
            let params = (
                account.name,
                account.kind.as_str(),
                account.token_hash,
                rows::now(),
                registration.name_key,
                registration.password_hash,
                registration.name_skeleton,
                registration.name_rule,
            );
            self.db.fetch_one(INSERT_PERSON, params).await
        };
        match inserted {
            Ok(row) => row.try_into(),
            Err(e) if is_unique_violation(&e) => Err(self.taken(&keys.0, &keys.1).await?),
            Err(e) => Err(e.into()),
        }
    }

    /// The account registered under the name key `name_key`, with its
    /// password hash (`None`: it has no password).
    #[tracing::instrument(skip_all)]
    pub async fn person_by_name_key(
        &self,
        name_key: &str,
    ) -> Result<Option<(Account, Option<String>)>, Error> {
        let row: Option<PersonRow> = self
            .db
            .fetch_optional(PERSON_BY_NAME_KEY, (name_key,))
            .await?;
        row.map(|r| Ok((r.account.try_into()?, r.password_hash)))
            .transpose()
    }

    /// Makes the guest `id` a player named `name`, keeping its id and with
    /// it its games and ratings. `None` if `id` is no guest's;
    /// [`Error::NameTaken`] if another account holds the name's key;
    /// [`Error::AccountDisabled`] if the guest is disabled or banned.
    #[tracing::instrument(skip_all, fields(account = %id))]
    pub async fn upgrade_guest(
        &self,
        id: AccountId,
        name: String,
        registration: Registration,
    ) -> Result<Option<Account>, Error> {
        let keys = (
            registration.name_key.clone(),
            registration.name_skeleton.clone(),
        );
        let updated: Result<Option<AccountRow>, sqlx::Error> = {
            let _turn = self.db.write_turn().await;
            let params = (
                id.0,
                name,
                registration.name_key,
                registration.password_hash,
                registration.name_skeleton,
                registration.name_rule,
            );
            self.db.fetch_optional(UPGRADE_GUEST, params).await
        };
        match updated {
            Ok(Some(row)) => row.try_into().map(Some),
            Ok(None) => match self.account(id).await? {
                Some(account) if !account.is_active() => Err(Error::AccountDisabled {
                    account: id,
                    status: account.status,
                }),
                _ => Ok(None),
            },
            Err(e) if is_unique_violation(&e) => Err(self.taken(&keys.0, &keys.1).await?),
            Err(e) => Err(e.into()),
        }
    }

    /// What a unique violation on inserting the name key `key` and the
    /// skeleton `skeleton` meant: the name (or one that looks like it) is
    /// taken, or else (a random token's hash met another) the token.
    pub(crate) async fn taken(&self, key: &str, skeleton: &str) -> Result<Error, Error> {
        let holder: Option<(i64,)> = self
            .db
            .fetch_optional(NAME_KEY_TAKEN, (key, skeleton))
            .await?;
        Ok(match holder {
            Some(_) => Error::NameTaken,
            None => Error::TokenTaken,
        })
    }
}

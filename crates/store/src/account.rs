//! Accounts: who may act, and how a bearer token finds them.

use std::fmt;

use sha2::{Digest, Sha256};
use time::OffsetDateTime;

use crate::error::is_unique_violation;
use crate::rows::{self, AccountRow};
use crate::{Error, Store, sql};

/// An account's database id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AccountId(pub i64);

impl fmt::Display for AccountId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// What an account is; the service decides what each kind may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AccountKind {
    Player,
    Guest,
    Bot,
    Operator,
}

impl AccountKind {
    /// The text stored in the `kind` column.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Player => "player",
            Self::Guest => "guest",
            Self::Bot => "bot",
            Self::Operator => "operator",
        }
    }

    pub(crate) fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "player" => Self::Player,
            "guest" => Self::Guest,
            "bot" => Self::Bot,
            "operator" => Self::Operator,
            _ => return None,
        })
    }
}

/// An account to create. Takes the token's hash, never the token, so a
/// token cannot end up in the database or in a log of this value.
#[derive(Debug, Clone)]
pub struct NewAccount {
    pub name: String,
    pub kind: AccountKind,
    /// [`token_hash`] of the account's bearer token.
    pub token_hash: String,
}

/// A stored account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Account {
    pub id: AccountId,
    pub name: String,
    pub kind: AccountKind,
    pub token_hash: String,
    pub created_at: OffsetDateTime,
}

/// The sha256 hex of a bearer token: what `accounts.token_hash` holds.
///
/// Lives here so the code that issues tokens and the code that checks them
/// cannot disagree on the hashing.
pub fn token_hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

impl Store {
    /// Fails with [`Error::TokenTaken`] if the token hash is in use.
    pub async fn create_account(&self, account: NewAccount) -> Result<Account, Error> {
        let params = (
            account.name,
            account.kind.as_str(),
            account.token_hash,
            rows::now(),
        );
        let _turn = self.db.write_turn().await;
        let row: AccountRow = self
            .db
            .fetch_one(sql::INSERT_ACCOUNT, params)
            .await
            .map_err(|e| match is_unique_violation(&e) {
                true => Error::TokenTaken,
                false => e.into(),
            })?;
        row.try_into()
    }

    pub async fn account(&self, id: AccountId) -> Result<Option<Account>, Error> {
        let row: Option<AccountRow> = self.db.fetch_optional(sql::ACCOUNT_BY_ID, (id.0,)).await?;
        row.map(TryInto::try_into).transpose()
    }

    /// Accounts of `kind` (`None`: every kind), oldest first, at most `limit`.
    pub async fn accounts(
        &self,
        kind: Option<AccountKind>,
        limit: u32,
    ) -> Result<Vec<Account>, Error> {
        let params = (kind.map(AccountKind::as_str), i64::from(limit));
        let rows: Vec<AccountRow> = self.db.fetch_all(sql::ACCOUNTS_BY_KIND, params).await?;
        rows.into_iter().map(TryInto::try_into).collect()
    }

    /// Authentication: the account holding this [`token_hash`].
    pub async fn account_by_token_hash(&self, token_hash: &str) -> Result<Option<Account>, Error> {
        let row: Option<AccountRow> = self
            .db
            .fetch_optional(sql::ACCOUNT_BY_TOKEN_HASH, (token_hash,))
            .await?;
        row.map(TryInto::try_into).transpose()
    }
}

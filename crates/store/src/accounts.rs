//! The accounts table: creating an account, finding accounts by id, by
//! kind and by the hash of a bearer token, and the operator's house-bot
//! mark.

use crate::credentials::insert_credentials;
use crate::error::is_unique_violation;
use crate::rows::{self, AccountRow};
use crate::{
    Account, AccountId, AccountKind, Credential, Error, NewAccount, NewCredential, Store, sql,
};

impl Store {
    /// The account alone: it authenticates nobody until it holds a
    /// credential ([`Self::create_account_with_credentials`]). Fails with
    /// [`Error::TokenTaken`] if the token hash is in use.
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

    /// Creates `account` holding `credentials`, atomically. Fails with
    /// [`Error::TokenTaken`] if a hash is in use.
    pub async fn create_account_with_credentials(
        &self,
        account: NewAccount,
        credentials: &[NewCredential],
    ) -> Result<(Account, Vec<Credential>), Error> {
        self.create_owned_account(account, None, credentials).await
    }

    /// As [`Self::create_account_with_credentials`], run by `owner` (see
    /// [`Account::owner`]; `None`: its own owner).
    pub async fn create_owned_account(
        &self,
        account: NewAccount,
        owner: Option<AccountId>,
        credentials: &[NewCredential],
    ) -> Result<(Account, Vec<Credential>), Error> {
        let params = (
            account.name,
            account.kind.as_str(),
            account.token_hash,
            rows::now(),
        );
        let mut tx = self.db.begin().await?;
        let mut row: AccountRow = tx
            .fetch_one(sql::INSERT_ACCOUNT, params)
            .await
            .map_err(crate::error::explain_token_insert)?;
        if let Some(owner) = owner {
            let id = Account::try_from(row)?.id;
            row = tx.fetch_one(sql::SET_OWNER, (id.0, owner.0)).await?;
        }
        let account = Account::try_from(row)?;
        let stored = insert_credentials(&mut tx, account.id, credentials).await?;
        tx.commit().await?;
        Ok((account, stored))
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

    /// The house bots, oldest first, at most `limit`.
    pub async fn house_bots(&self, limit: u32) -> Result<Vec<Account>, Error> {
        let rows: Vec<AccountRow> = self
            .db
            .fetch_all(sql::HOUSE_BOTS, (i64::from(limit),))
            .await?;
        rows.into_iter().map(TryInto::try_into).collect()
    }

    /// Marks the bot account `id` as a house bot (`house_bot`) or no longer
    /// one. `None` if there is no such bot account (no account, or one of
    /// another kind: only bots can be house bots).
    pub async fn set_house_bot(
        &self,
        id: AccountId,
        house_bot: bool,
    ) -> Result<Option<Account>, Error> {
        let _turn = self.db.write_turn().await;
        let row: Option<AccountRow> = self
            .db
            .fetch_optional(sql::SET_HOUSE_BOT, (id.0, house_bot))
            .await?;
        row.map(TryInto::try_into).transpose()
    }

    /// The account whose first token had this [`crate::token_hash`]
    /// (authentication reads credentials instead:
    /// [`Self::credential_by_hash`]).
    pub async fn account_by_token_hash(&self, token_hash: &str) -> Result<Option<Account>, Error> {
        let row: Option<AccountRow> = self
            .db
            .fetch_optional(sql::ACCOUNT_BY_TOKEN_HASH, (token_hash,))
            .await?;
        row.map(TryInto::try_into).transpose()
    }
}

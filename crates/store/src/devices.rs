//! Devices that sign in as an account (a mobile app's device id): kept by
//! the hash of the id, which works like a bearer secret. A device belongs
//! to one account; an account may have several devices.

use crate::error::is_unique_violation;
use crate::rows::{self, AccountRow};
use crate::sql::{INSERT_ACCOUNT, account_columns};
use crate::{Account, AccountId, Error, NewAccount, Store};

const ACCOUNT_BY_DEVICE: &str = concat!(
    "SELECT ",
    account_columns!(),
    " FROM accounts WHERE id = (SELECT account_id FROM devices WHERE device_hash = $1)"
);

const INSERT_DEVICE: &str =
    "INSERT INTO devices (device_hash, account_id, created_at) VALUES ($1, $2, $3)";

/// Links unless the device is linked already (to whichever account).
const LINK_DEVICE: &str = "INSERT INTO devices (device_hash, account_id, created_at) \
     VALUES ($1, $2, $3) ON CONFLICT (device_hash) DO NOTHING";

const DEVICE_OWNER: &str = "SELECT account_id FROM devices WHERE device_hash = $1";

impl Store {
    /// The account the device with this id hash signs in as.
    #[tracing::instrument(skip_all)]
    pub async fn account_by_device(&self, device_hash: &str) -> Result<Option<Account>, Error> {
        let row: Option<AccountRow> = self
            .db
            .fetch_optional(ACCOUNT_BY_DEVICE, (device_hash,))
            .await?;
        row.map(TryInto::try_into).transpose()
    }

    /// Creates `account` with the device linked to it, atomically. Fails
    /// with [`Error::DeviceTaken`] (creating nothing) if the device is
    /// linked already: a concurrent first sign-in from it won.
    #[tracing::instrument(skip_all)]
    pub async fn create_device_account(
        &self,
        account: NewAccount,
        device_hash: &str,
    ) -> Result<Account, Error> {
        let now = rows::now();
        let mut tx = self.db.begin().await?;
        let params = (account.name, account.kind.as_str(), account.token_hash, now);
        let row: AccountRow = tx.fetch_one(INSERT_ACCOUNT, params).await.map_err(|e| {
            match is_unique_violation(&e) {
                true => Error::TokenTaken,
                false => e.into(),
            }
        })?;
        let created: Account = row.try_into()?;
        let linked = tx
            .execute(INSERT_DEVICE, (device_hash, created.id.0, now))
            .await;
        match linked {
            Ok(_) => {
                tx.commit().await?;
                Ok(created)
            }
            Err(e) if is_unique_violation(&e) => {
                tx.rollback().await?;
                Err(Error::DeviceTaken)
            }
            Err(e) => Err(e.into()),
        }
    }

    /// Links the device to `account`; linking it again to the same account
    /// changes nothing. Fails with [`Error::DeviceTaken`] if another
    /// account has it.
    #[tracing::instrument(skip_all, fields(account = %account))]
    pub async fn link_device(&self, device_hash: &str, account: AccountId) -> Result<(), Error> {
        {
            let _turn = self.db.write_turn().await;
            self.db
                .execute(LINK_DEVICE, (device_hash, account.0, rows::now()))
                .await?;
        }
        let owner: Option<(i64,)> = self.db.fetch_optional(DEVICE_OWNER, (device_hash,)).await?;
        match owner {
            Some((id,)) if id == account.0 => Ok(()),
            Some(_) => Err(Error::DeviceTaken),
            None => Err(Error::Corrupt("a linked device vanished".into())),
        }
    }
}

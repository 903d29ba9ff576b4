//! Accounts as the API shows them, and the API's account kinds read back:
//! shared by AccountService, the sign-ins and AdminService.

use skit_api::ApiError;
use skit_proto::v1::{AccountKind as ApiKind, AccountSummary};
use skit_store::{Account, AccountKind};

pub(crate) fn api_kind(kind: AccountKind) -> ApiKind {
    match kind {
        AccountKind::Guest => ApiKind::Guest,
        AccountKind::Player => ApiKind::Player,
        AccountKind::Bot => ApiKind::Bot,
        AccountKind::Operator => ApiKind::Operator,
    }
}

/// A request's kind filter (field `field`); `UNSPECIFIED` is `None`.
pub(crate) fn store_kind(field: &str, value: i32) -> Result<Option<AccountKind>, ApiError> {
    match ApiKind::try_from(value) {
        Ok(ApiKind::Unspecified) => Ok(None),
        Ok(ApiKind::Guest) => Ok(Some(AccountKind::Guest)),
        Ok(ApiKind::Player) => Ok(Some(AccountKind::Player)),
        Ok(ApiKind::Bot) => Ok(Some(AccountKind::Bot)),
        Ok(ApiKind::Operator) => Ok(Some(AccountKind::Operator)),
        Err(_) => Err(ApiError::invalid(field, "unknown account kind")),
    }
}

pub(crate) fn summary(account: Account) -> AccountSummary {
    AccountSummary {
        owner_account_id: owner_id(&account),
        account_id: account.id.to_string(),
        name: account.name,
        kind: api_kind(account.kind) as i32,
        house_bot: account.house_bot,
    }
}

/// An account's owner as the API shows it: empty for its own owner.
pub(crate) fn owner_id(account: &Account) -> String {
    account.owner.map(|o| o.to_string()).unwrap_or_default()
}

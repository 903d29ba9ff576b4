//! Accounts: who may act, and the hash by which a bearer token finds one.
//! The table's reads and writes are `accounts.rs`.

use std::fmt;

use sha2::{Digest, Sha256};
use time::OffsetDateTime;

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

/// Whether an account may act: an operator disables or bans one
/// (`Store::set_account_status`); every credential of an account that is
/// not active is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AccountStatus {
    Active,
    Disabled,
    Banned,
}

impl AccountStatus {
    /// The text stored in the `status` column.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Active => "active",
            Self::Disabled => "disabled",
            Self::Banned => "banned",
        }
    }

    pub(crate) fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "active" => Self::Active,
            "disabled" => Self::Disabled,
            "banned" => Self::Banned,
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
    /// A bot the operator runs for the service itself: only these fill
    /// matchmade tables. Only the operator sets it (`Store::set_house_bot`).
    pub house_bot: bool,
    /// Active unless an operator disabled or banned it.
    pub status: AccountStatus,
    /// The operator's reason for the status; empty while active.
    pub status_reason: String,
    /// Who runs this (bot) account; `None`: it is its own owner.
    pub owner: Option<AccountId>,
}

impl Account {
    pub fn is_active(&self) -> bool {
        self.status == AccountStatus::Active
    }

    /// The owner whose accounts never share a table and gain no rating
    /// from each other: the account's owner, or the account itself.
    pub fn owner_group(&self) -> AccountId {
        self.owner.unwrap_or(self.id)
    }
}

/// The sha256 hex of a bearer token: what `accounts.token_hash` holds.
///
/// Lives here so the code that issues tokens and the code that checks them
/// cannot disagree on the hashing.
pub fn token_hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

//! Credentials: the bearer secrets an account holds, each found by its
//! hash ([`crate::token_hash`]), each with its own kind, scopes, expiry and
//! revocation. The table's reads and writes are `credentials.rs`.

use std::fmt;

use sqlx::FromRow;
use time::OffsetDateTime;

use crate::{AccountId, AccountStatus, Error};

/// A credential's database id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CredentialId(pub i64);

impl fmt::Display for CredentialId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// What a credential is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CredentialKind {
    /// Short-lived; authenticates calls. Of a session, or (for tokens that
    /// predate sessions) of none, never expiring.
    Access,
    /// Longer-lived; only buys a new access token, once (then it rotates).
    Refresh,
    /// A bot's key: authenticates calls within its scopes.
    ApiKey,
    /// The configured operator token.
    Operator,
}

impl CredentialKind {
    /// The text stored in the `kind` column.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Access => "access",
            Self::Refresh => "refresh",
            Self::ApiKey => "api_key",
            Self::Operator => "operator",
        }
    }

    fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "access" => Self::Access,
            "refresh" => Self::Refresh,
            "api_key" => Self::ApiKey,
            "operator" => Self::Operator,
            _ => return None,
        })
    }
}

/// What a credential may do. The service decides which calls need which.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Scope {
    /// Change games: create, join, move, resign, queue.
    Play,
    /// Read: views, histories, lists, watching, ratings.
    Read,
    /// The operator's calls.
    Admin,
}

impl Scope {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Play => "play",
            Self::Read => "read",
            Self::Admin => "admin",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "play" => Self::Play,
            "read" => Self::Read,
            "admin" => Self::Admin,
            _ => return None,
        })
    }
}

/// A credential to store. Takes the secret's hash, never the secret.
#[derive(Debug, Clone)]
pub struct NewCredential {
    pub kind: CredentialKind,
    /// [`crate::token_hash`] of the secret.
    pub token_hash: String,
    /// The session (refresh-token family) of an access or refresh token.
    pub session_id: Option<String>,
    /// An API key's scopes; empty for the other kinds, whose scopes follow
    /// from their kind.
    pub scopes: Vec<Scope>,
    /// An API key's label, chosen by its owner.
    pub label: Option<String>,
    /// `None`: never.
    pub expires_at: Option<OffsetDateTime>,
}

/// A stored credential.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Credential {
    pub id: CredentialId,
    pub account_id: AccountId,
    pub kind: CredentialKind,
    pub token_hash: String,
    pub session_id: Option<String>,
    pub scopes: Vec<Scope>,
    pub label: Option<String>,
    pub created_at: OffsetDateTime,
    pub expires_at: Option<OffsetDateTime>,
    pub revoked_at: Option<OffsetDateTime>,
    /// Why it was revoked: `rotated` for a refresh token that was used.
    pub revoked_reason: Option<String>,
}

impl Credential {
    /// Whether it has expired by `now`.
    pub fn expired(&self, now: OffsetDateTime) -> bool {
        self.expires_at.is_some_and(|at| at <= now)
    }

    /// Neither revoked nor expired by `now`.
    pub fn is_live(&self, now: OffsetDateTime) -> bool {
        self.revoked_at.is_none() && !self.expired(now)
    }
}

/// Why a refresh token bought nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RefreshRefusal {
    /// No such refresh token.
    Unknown,
    Expired,
    /// Revoked (logged out, or its session or account revoked).
    Revoked,
    /// Already used once: someone holds a copy. Its whole session is now
    /// revoked.
    Reused,
    /// Its account is disabled or banned, whatever became of the token.
    AccountDisabled {
        account: AccountId,
        status: AccountStatus,
    },
}

/// What `revoked_reason` holds for a refresh token that was used.
pub(crate) const ROTATED: &str = "rotated";

pub(crate) fn scopes_to_db(scopes: &[Scope]) -> String {
    let names: Vec<&str> = scopes.iter().map(|s| s.as_str()).collect();
    names.join(" ")
}

/// The columns a [`CredentialRow`] reads.
macro_rules! credential_columns {
    () => {
        "id, account_id, kind, token_hash, session_id, scopes, label, created_at, \
         expires_at, revoked_at, revoked_reason"
    };
}
pub(crate) use credential_columns;

#[derive(Debug, FromRow)]
pub(crate) struct CredentialRow {
    id: i64,
    account_id: i64,
    kind: String,
    token_hash: String,
    session_id: Option<String>,
    scopes: String,
    label: Option<String>,
    created_at: OffsetDateTime,
    expires_at: Option<OffsetDateTime>,
    revoked_at: Option<OffsetDateTime>,
    revoked_reason: Option<String>,
}

impl TryFrom<CredentialRow> for Credential {
    type Error = Error;

    fn try_from(r: CredentialRow) -> Result<Self, Error> {
        let scopes = r
            .scopes
            .split_whitespace()
            .map(|s| Scope::parse(s).ok_or_else(|| Error::Corrupt(format!("scope {s:?}"))))
            .collect::<Result<_, _>>()?;
        Ok(Self {
            id: CredentialId(r.id),
            account_id: AccountId(r.account_id),
            kind: CredentialKind::parse(&r.kind)
                .ok_or_else(|| Error::Corrupt(format!("credential kind {:?}", r.kind)))?,
            token_hash: r.token_hash,
            session_id: r.session_id,
            scopes,
            label: r.label,
            created_at: r.created_at,
            expires_at: r.expires_at,
            revoked_at: r.revoked_at,
            revoked_reason: r.revoked_reason,
        })
    }
}

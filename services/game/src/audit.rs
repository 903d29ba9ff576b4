//! Operators and the audit log, as the service sees them: the check that a
//! caller is an operator, the record of what one did, the reason an
//! operator gives, and audit entries as the API shows them.

use serde_json::Value;
use skit_api::{ApiError, timestamp};
use skit_proto::v1;
use skit_store::{AccountId, AuditEntry, GameId, NewAudit};

use crate::auth::Caller;

/// The longest reason an operator may give.
const REASON_MAX_CHARS: usize = 500;

/// An authenticated caller who is an operator.
#[derive(Debug, Clone)]
pub struct Operator(Caller);

impl Operator {
    /// `caller`, if an operator; PERMISSION_DENIED saying what for.
    pub fn check(caller: Caller, what: &str) -> Result<Self, ApiError> {
        match caller.is_operator() {
            true => Ok(Self(caller)),
            false => Err(ApiError::permission_denied(format!(
                "only operators {what}"
            ))),
        }
    }

    pub fn id(&self) -> AccountId {
        self.0.account.id
    }

    /// The record of this operator doing `action` for `reason`.
    pub fn audit(&self, action: &'static str, reason: &str) -> NewAudit {
        NewAudit {
            operator: self.id(),
            action,
            target_account: None,
            target_game: None,
            reason: reason.to_owned(),
            details: Value::Object(serde_json::Map::new()),
        }
    }

    pub fn audit_account(&self, action: &'static str, reason: &str, id: AccountId) -> NewAudit {
        NewAudit {
            target_account: Some(id),
            ..self.audit(action, reason)
        }
    }

    pub fn audit_game(&self, action: &'static str, reason: &str, id: GameId) -> NewAudit {
        NewAudit {
            target_game: Some(id),
            ..self.audit(action, reason)
        }
    }
}

/// An operator's reason (field `field`): trimmed, at most 500 characters,
/// and (with `required`) not empty.
pub fn reason(field: &str, text: &str, required: bool) -> Result<String, ApiError> {
    let text = text.trim();
    if required && text.is_empty() {
        return Err(ApiError::invalid(field, "is required: say why"));
    }
    if text.chars().count() > REASON_MAX_CHARS {
        return Err(ApiError::invalid(
            field,
            format!("must be at most {REASON_MAX_CHARS} characters"),
        ));
    }
    skit_api::text::stored(field, text)?;
    Ok(text.to_owned())
}

/// An entry as the API shows it.
pub fn entry_message(entry: AuditEntry) -> v1::AuditEntry {
    let details = match entry.details {
        Value::Object(map) => serde_json::from_value(Value::Object(map)).ok(),
        _ => None,
    };
    v1::AuditEntry {
        id: entry.id.to_string(),
        at: Some(timestamp(entry.at)),
        operator_id: entry.operator.to_string(),
        action: entry.action,
        target_account_id: entry.target_account.map(|a| a.to_string()),
        target_game_id: entry.target_game.map(|g| g.to_string()),
        reason: entry.reason,
        details,
    }
}

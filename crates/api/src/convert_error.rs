//! Why an API message could not be turned into engine values.

/// An API message the engine cannot read; `field` names where (e.g.
/// `legal_actions[2].play`), as the service's own errors do.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {message}")]
pub struct ConvertError {
    pub field: String,
    pub message: String,
}

impl ConvertError {
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> ConvertError {
        ConvertError {
            field: field.into(),
            message: message.into(),
        }
    }
}

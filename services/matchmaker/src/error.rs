//! The matchmaker's refusals, mapped once to gRPC statuses with the same
//! `skit-error-code` trailer as the game service. Internal failures are
//! logged here and reach the client only as "internal error".

use tonic::{Code, Status};

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("{0}")]
    Unauthenticated(String),
    #[error("{0}")]
    PermissionDenied(String),
    #[error("{0}")]
    NotFound(String),
    /// A malformed request; `field` names the request field.
    #[error("{field}: {message}")]
    InvalidArgument { field: String, message: String },
    #[error("{0}")]
    FailedPrecondition(String),
    /// The game service cannot be reached.
    #[error("the game service is unavailable")]
    Unavailable,
    #[error("internal error")]
    Internal,
}

impl ApiError {
    pub fn invalid(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self::InvalidArgument {
            field: field.into(),
            message: message.into(),
        }
    }

    /// Logs an internal failure and hides it.
    pub fn internal(context: &str, error: &(dyn std::error::Error + 'static)) -> Self {
        tracing::error!(error = %error, source = ?error.source(), "{context}");
        Self::Internal
    }

    /// A short stable code for clients and logs.
    pub fn code(&self) -> &'static str {
        match self {
            Self::Unauthenticated(_) => "unauthenticated",
            Self::PermissionDenied(_) => "permission_denied",
            Self::NotFound(_) => "not_found",
            Self::InvalidArgument { .. } => "invalid_argument",
            Self::FailedPrecondition(_) => "failed_precondition",
            Self::Unavailable => "unavailable",
            Self::Internal => "internal",
        }
    }

    /// The game service's answer to WhoAmI, as the caller should see it.
    pub fn from_auth(status: &Status) -> Self {
        match status.code() {
            Code::Unauthenticated | Code::PermissionDenied => {
                Self::Unauthenticated(status.message().to_owned())
            }
            Code::Unavailable | Code::DeadlineExceeded | Code::Cancelled => Self::Unavailable,
            _ => Self::internal("whoami failed", status),
        }
    }
}

impl From<skit_store::Error> for ApiError {
    fn from(e: skit_store::Error) -> Self {
        Self::internal("store error", &e)
    }
}

impl From<skit_engine::RulesError> for ApiError {
    fn from(e: skit_engine::RulesError) -> Self {
        Self::invalid(format!("rules.{}", e.option), e.message)
    }
}

impl From<ApiError> for Status {
    fn from(e: ApiError) -> Self {
        let code = match &e {
            ApiError::Unauthenticated(_) => Code::Unauthenticated,
            ApiError::PermissionDenied(_) => Code::PermissionDenied,
            ApiError::NotFound(_) => Code::NotFound,
            ApiError::InvalidArgument { .. } => Code::InvalidArgument,
            ApiError::FailedPrecondition(_) => Code::FailedPrecondition,
            ApiError::Unavailable => Code::Unavailable,
            ApiError::Internal => Code::Internal,
        };
        let mut status = Status::new(code, e.to_string());
        if let Ok(value) = e.code().parse() {
            status.metadata_mut().insert("skit-error-code", value);
        }
        status
    }
}

//! The service's one error type: every refusal a client can see, mapped
//! once to a gRPC status (and, by the gateway, to an HTTP status). Database
//! and other internal failures are logged here and reach the client only as
//! "internal error".

use skit_engine::{MoveError, RulesError};

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("{0}")]
    Unauthenticated(&'static str),
    #[error("{0}")]
    PermissionDenied(String),
    #[error("{0}")]
    NotFound(String),
    /// A malformed request; `field` names the request field.
    #[error("{field}: {message}")]
    InvalidArgument { field: String, message: String },
    /// A well-formed action the rules refuse; `code` is the engine's rule code.
    #[error("{code}: {message}")]
    Refused { code: &'static str, message: String },
    /// A request that conflicts with the game's state outside the rules
    /// (a seat already taken, ...).
    #[error("{0}")]
    FailedPrecondition(String),
    /// A move id reused for a different move.
    #[error("{0}")]
    AlreadyExists(String),
    /// The client's expected version is stale.
    #[error("the game is at version {current}, not {expected}")]
    Stale { expected: u64, current: u64 },
    /// Logged where it happened; the client sees only "internal error".
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

    /// Logs an internal failure with its cause chain and hides it.
    pub fn internal(context: &str, error: &(dyn std::error::Error + 'static)) -> Self {
        let mut causes = String::new();
        let mut source = error.source();
        while let Some(s) = source {
            causes.push_str(": ");
            causes.push_str(&s.to_string());
            source = s.source();
        }
        tracing::error!(error = %error, causes, "{context}");
        Self::Internal
    }

    /// A short stable code for clients, logs and metrics.
    pub fn code(&self) -> &'static str {
        match self {
            Self::Unauthenticated(_) => "unauthenticated",
            Self::PermissionDenied(_) => "permission_denied",
            Self::NotFound(_) => "not_found",
            Self::InvalidArgument { .. } => "invalid_argument",
            Self::Refused { code, .. } => code,
            Self::FailedPrecondition(_) => "failed_precondition",
            Self::AlreadyExists(_) => "already_exists",
            Self::Stale { .. } => "stale_version",
            Self::Internal => "internal",
        }
    }
}

impl From<MoveError> for ApiError {
    fn from(e: MoveError) -> Self {
        Self::Refused {
            code: e.code(),
            message: e.to_string(),
        }
    }
}

impl From<RulesError> for ApiError {
    fn from(e: RulesError) -> Self {
        Self::invalid(format!("rules.{}", e.option), e.message)
    }
}

impl From<skit_store::Error> for ApiError {
    fn from(e: skit_store::Error) -> Self {
        match e {
            skit_store::Error::GameNotFound(id) => Self::NotFound(format!("no game {id}")),
            skit_store::Error::NoOpenSeat(id) => {
                Self::FailedPrecondition(format!("game {id} has no open seat"))
            }
            skit_store::Error::Conflict { current_version } => Self::Stale {
                expected: current_version + 1,
                current: current_version,
            },
            other => Self::internal("store error", &other),
        }
    }
}

impl From<ApiError> for tonic::Status {
    fn from(e: ApiError) -> Self {
        use tonic::Code;
        let code = match &e {
            ApiError::Unauthenticated(_) => Code::Unauthenticated,
            ApiError::PermissionDenied(_) => Code::PermissionDenied,
            ApiError::NotFound(_) => Code::NotFound,
            ApiError::InvalidArgument { .. } => Code::InvalidArgument,
            ApiError::Refused { .. } | ApiError::FailedPrecondition(_) => Code::FailedPrecondition,
            ApiError::AlreadyExists(_) => Code::AlreadyExists,
            ApiError::Stale { .. } => Code::Aborted,
            ApiError::Internal => Code::Internal,
        };
        let mut status = tonic::Status::new(code, e.to_string());
        if let Ok(value) = e.code().parse() {
            status.metadata_mut().insert("skit-error-code", value);
        }
        status
    }
}

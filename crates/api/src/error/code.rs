//! The classes of error, one per gRPC status code, and the one mapping from
//! a class to its HTTP status.

use http::StatusCode;
use tonic::Code;

/// What kind of failure an error is: the gRPC status code a gRPC client
/// sees and, through [`ErrorCode::http_status`], the HTTP status a REST
/// client sees. Which rule or condition failed is the error's `reason`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorCode {
    Cancelled,
    Unknown,
    InvalidArgument,
    DeadlineExceeded,
    NotFound,
    AlreadyExists,
    PermissionDenied,
    ResourceExhausted,
    FailedPrecondition,
    Aborted,
    OutOfRange,
    Unimplemented,
    Internal,
    Unavailable,
    DataLoss,
    Unauthenticated,
}

impl ErrorCode {
    /// The gRPC status code.
    pub fn grpc(self) -> Code {
        match self {
            Self::Cancelled => Code::Cancelled,
            Self::Unknown => Code::Unknown,
            Self::InvalidArgument => Code::InvalidArgument,
            Self::DeadlineExceeded => Code::DeadlineExceeded,
            Self::NotFound => Code::NotFound,
            Self::AlreadyExists => Code::AlreadyExists,
            Self::PermissionDenied => Code::PermissionDenied,
            Self::ResourceExhausted => Code::ResourceExhausted,
            Self::FailedPrecondition => Code::FailedPrecondition,
            Self::Aborted => Code::Aborted,
            Self::OutOfRange => Code::OutOfRange,
            Self::Unimplemented => Code::Unimplemented,
            Self::Internal => Code::Internal,
            Self::Unavailable => Code::Unavailable,
            Self::DataLoss => Code::DataLoss,
            Self::Unauthenticated => Code::Unauthenticated,
        }
    }

    /// The HTTP status. The only place the two meet: a refusal of the
    /// game's state (stale, reused id, rule) is 409, a retryable outage is
    /// 503, anything unexpected 500.
    pub fn http_status(self) -> StatusCode {
        match self {
            Self::InvalidArgument => StatusCode::BAD_REQUEST,
            Self::Unauthenticated => StatusCode::UNAUTHORIZED,
            Self::PermissionDenied => StatusCode::FORBIDDEN,
            Self::NotFound => StatusCode::NOT_FOUND,
            Self::AlreadyExists | Self::Aborted | Self::FailedPrecondition => StatusCode::CONFLICT,
            Self::ResourceExhausted => StatusCode::TOO_MANY_REQUESTS,
            Self::DeadlineExceeded => StatusCode::GATEWAY_TIMEOUT,
            Self::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
            Self::Cancelled
            | Self::Unknown
            | Self::OutOfRange
            | Self::Unimplemented
            | Self::Internal
            | Self::DataLoss => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The canonical upper-case name, as gRPC tools print it and the REST
    /// body's `code` shows it.
    pub fn name(self) -> &'static str {
        self.names().0
    }

    /// The reason an error of this class has when nothing more specific
    /// applies: the name in lower case.
    pub fn default_reason(self) -> &'static str {
        self.names().1
    }

    fn names(self) -> (&'static str, &'static str) {
        match self {
            Self::Cancelled => ("CANCELLED", "cancelled"),
            Self::Unknown => ("UNKNOWN", "unknown"),
            Self::InvalidArgument => ("INVALID_ARGUMENT", "invalid_argument"),
            Self::DeadlineExceeded => ("DEADLINE_EXCEEDED", "deadline_exceeded"),
            Self::NotFound => ("NOT_FOUND", "not_found"),
            Self::AlreadyExists => ("ALREADY_EXISTS", "already_exists"),
            Self::PermissionDenied => ("PERMISSION_DENIED", "permission_denied"),
            Self::ResourceExhausted => ("RESOURCE_EXHAUSTED", "resource_exhausted"),
            Self::FailedPrecondition => ("FAILED_PRECONDITION", "failed_precondition"),
            Self::Aborted => ("ABORTED", "aborted"),
            Self::OutOfRange => ("OUT_OF_RANGE", "out_of_range"),
            Self::Unimplemented => ("UNIMPLEMENTED", "unimplemented"),
            Self::Internal => ("INTERNAL", "internal"),
            Self::Unavailable => ("UNAVAILABLE", "unavailable"),
            Self::DataLoss => ("DATA_LOSS", "data_loss"),
            Self::Unauthenticated => ("UNAUTHENTICATED", "unauthenticated"),
        }
    }
}

impl From<Code> for ErrorCode {
    /// A status's class. `OK` is no error at all; a status that carries it
    /// anyway is a fault of whoever made it, so it reads as `UNKNOWN`.
    fn from(code: Code) -> Self {
        match code {
            Code::Ok | Code::Unknown => Self::Unknown,
            Code::Cancelled => Self::Cancelled,
            Code::InvalidArgument => Self::InvalidArgument,
            Code::DeadlineExceeded => Self::DeadlineExceeded,
            Code::NotFound => Self::NotFound,
            Code::AlreadyExists => Self::AlreadyExists,
            Code::PermissionDenied => Self::PermissionDenied,
            Code::ResourceExhausted => Self::ResourceExhausted,
            Code::FailedPrecondition => Self::FailedPrecondition,
            Code::Aborted => Self::Aborted,
            Code::OutOfRange => Self::OutOfRange,
            Code::Unimplemented => Self::Unimplemented,
            Code::Internal => Self::Internal,
            Code::Unavailable => Self::Unavailable,
            Code::DataLoss => Self::DataLoss,
            Code::Unauthenticated => Self::Unauthenticated,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_class_round_trips_through_its_grpc_code() {
        for number in 1..=16 {
            let code = ErrorCode::from(Code::from_i32(number));
            assert_eq!(code.grpc(), Code::from_i32(number), "{number}");
            assert_eq!(code.default_reason(), code.name().to_lowercase());
        }
    }
}

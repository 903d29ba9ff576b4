//! An [`ApiError`] as a gRPC status: the code, the message, and the
//! `google.rpc` details in `grpc-status-details-bin` (tonic's richer-error
//! model): `ErrorInfo` with the reason and metadata, `BadRequest` with the
//! fields at fault, `RetryInfo` with the retry hint. The reason also goes in
//! the `skit-error-code` trailer, which clients read without decoding
//! details.

use std::collections::HashMap;

use tonic::Status;
use tonic::metadata::MetadataValue;
use tonic_types::{ErrorDetails, StatusExt};

use super::ApiError;

/// `ErrorInfo.domain`: whose reasons these are.
pub const DOMAIN: &str = "skitgubbe";

/// The trailer (metadata) that carries the reason.
pub const CODE_TRAILER: &str = "skit-error-code";

impl From<ApiError> for Status {
    fn from(e: ApiError) -> Self {
        let metadata: HashMap<String, String> = e
            .metadata
            .iter()
            .map(|(key, value)| ((*key).to_owned(), value.clone()))
            .collect();
        let mut details = ErrorDetails::with_error_info(e.reason, DOMAIN, metadata);
        for violation in &e.violations {
            details.add_bad_request_violation(&violation.field, &violation.description);
        }
        if let Some(delay) = e.retry_delay {
            details.set_retry_info(Some(delay));
        }
        let mut status = Status::with_error_details(e.code.grpc(), e.message, details);
        // Reasons are snake_case ASCII, always a valid header value.
        status
            .metadata_mut()
            .insert(CODE_TRAILER, MetadataValue::from_static(e.reason));
        status
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use tonic::Code;

    use super::*;

    #[test]
    fn a_stale_write_carries_the_current_version() {
        let status = Status::from(ApiError::stale(3, 5));

        assert_eq!(status.code(), Code::Aborted);
        let info = status.get_details_error_info().expect("ErrorInfo");
        assert_eq!(info.reason, "stale_version");
        assert_eq!(info.domain, DOMAIN);
        assert_eq!(info.metadata["current_version"], "5");
        assert_eq!(info.metadata["expected_version"], "3");
        assert_eq!(
            status.metadata().get(CODE_TRAILER).expect("trailer"),
            "stale_version"
        );
    }

    #[test]
    fn a_bad_field_becomes_a_field_violation() {
        let status = Status::from(ApiError::invalid("seat", "no seat 9"));

        let bad = status.get_details_bad_request().expect("BadRequest");
        assert_eq!(bad.field_violations[0].field, "seat");
        assert_eq!(bad.field_violations[0].description, "no seat 9");
        assert_eq!(status.message(), "seat: no seat 9");
    }

    #[test]
    fn an_outage_says_when_to_retry() {
        let status = Status::from(ApiError::unavailable("down", Duration::from_secs(2)));

        let retry = status.get_details_retry_info().expect("RetryInfo");
        assert_eq!(retry.retry_delay, Some(Duration::from_secs(2)));
        assert!(status.get_details_bad_request().is_none());
    }
}

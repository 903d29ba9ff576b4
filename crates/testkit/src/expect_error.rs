//! Assertions on a refusal as a gRPC client sees it (code,
//! `google.rpc.ErrorInfo` reason and domain, the `skit-error-code` trailer,
//! `google.rpc.BadRequest` fields) and as a REST client sees it (HTTP
//! status and the JSON body's code, reason and `fieldViolations`), checked
//! against one expectation so the two faces cannot drift apart.

use serde_json::Value;
use skit_api::{ErrorCode, error::CODE_TRAILER, error::DOMAIN};
use tonic::{Code, Status};
use tonic_types::StatusExt;

/// What a client should see of one refusal.
#[derive(Debug, Clone, Copy)]
pub struct Expected {
    pub code: Code,
    pub reason: &'static str,
    /// The request field at fault, if the refusal names one.
    pub field: Option<&'static str>,
}

impl Expected {
    pub fn new(code: Code, reason: &'static str) -> Self {
        Self {
            code,
            reason,
            field: None,
        }
    }

    /// A malformed request naming `field`.
    pub fn invalid(field: &'static str) -> Self {
        Self {
            field: Some(field),
            ..Self::new(Code::InvalidArgument, "invalid_argument")
        }
    }

    /// Panics unless `status` is this refusal.
    pub fn grpc(&self, status: &Status) {
        assert_eq!(status.code(), self.code, "{status:?}");
        let info = status.get_details_error_info().expect("an ErrorInfo");
        assert_eq!(info.reason, self.reason, "{status:?}");
        assert_eq!(info.domain, DOMAIN, "{status:?}");
        let trailer = status
            .metadata()
            .get(CODE_TRAILER)
            .and_then(|v| v.to_str().ok());
        assert_eq!(trailer, Some(self.reason), "{status:?}");
        let fields: Vec<String> = status
            .get_details_bad_request()
            .map(|b| b.field_violations.into_iter().map(|v| v.field).collect())
            .unwrap_or_default();
        let want: Vec<String> = self.field.into_iter().map(String::from).collect();
        assert_eq!(fields, want, "{status:?}");
    }

    /// Panics unless `(http, body)` (as [`crate::Http::call`] answers) is
    /// this refusal.
    pub fn rest(&self, (http, body): &(u16, Value)) {
        let code = ErrorCode::from(self.code);
        assert_eq!(*http, code.http_status().as_u16(), "{body}");
        assert_eq!(body["code"], code.name(), "{body}");
        assert_eq!(body["reason"], self.reason, "{body}");
        let fields: Vec<&str> = body["fieldViolations"]
            .as_array()
            .expect("fieldViolations")
            .iter()
            .filter_map(|v| v["field"].as_str())
            .collect();
        let want: Vec<&str> = self.field.into_iter().collect();
        assert_eq!(fields, want, "{body}");
        let info = body["details"]
            .as_array()
            .expect("details")
            .iter()
            .find(|d| d["@type"] == "type.googleapis.com/google.rpc.ErrorInfo")
            .expect("an ErrorInfo detail");
        assert_eq!(info["reason"], self.reason, "{body}");
    }
}

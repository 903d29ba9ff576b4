//! A gRPC status as a REST client sees it: the JSON error body. The code,
//! reason, fields, metadata and retry hint are read back from the status's
//! `google.rpc` details into top-level fields, and every detail is also
//! kept in the protobuf JSON form of `Any` (each with an `@type`), as
//! grpc-gateway renders them.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use tonic::Status;
use tonic_types::{ErrorDetail, StatusExt};

use super::{ApiError, CODE_TRAILER, ErrorCode, Violation};

const PREFIX: &str = "type.googleapis.com/google.rpc.";

/// The JSON body of every REST error.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ErrorBody {
    /// The gRPC code name, e.g. `FAILED_PRECONDITION`.
    pub code: String,
    /// The stable machine-readable reason, e.g. `does_not_beat`.
    pub reason: String,
    pub message: String,
    pub field_violations: Vec<Violation>,
    /// Facts a client can act on, e.g. `current_version`.
    pub metadata: BTreeMap<String, String>,
    /// How long to wait before retrying, as a protobuf JSON duration
    /// (`"1s"`); only on errors worth retrying.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry_delay: Option<String>,
    /// The `google.rpc` details, each with an `@type`.
    pub details: Vec<Value>,
}

impl ErrorBody {
    /// The body for `status`. A status without `ErrorInfo` (from a service
    /// that attaches none) takes its reason from the `skit-error-code`
    /// trailer, else from its class.
    pub fn from_status(status: &Status) -> Self {
        let code = ErrorCode::from(status.code());
        let trailer = status
            .metadata()
            .get(CODE_TRAILER)
            .and_then(|v| v.to_str().ok());
        let mut body = Self {
            code: code.name().to_owned(),
            reason: trailer.unwrap_or(code.default_reason()).to_owned(),
            message: status.message().to_owned(),
            field_violations: Vec::new(),
            metadata: BTreeMap::new(),
            retry_delay: None,
            details: Vec::new(),
        };
        // DebugInfo is left out on purpose: stack entries are for logs, not
        // for callers.
        for detail in status.get_error_details_vec() {
            body.read(&detail);
            if let Some(json) = detail_json(detail) {
                body.details.push(json);
            }
        }
        body
    }

    fn read(&mut self, detail: &ErrorDetail) {
        match detail {
            ErrorDetail::ErrorInfo(info) => {
                self.reason.clone_from(&info.reason);
                self.metadata
                    .extend(info.metadata.iter().map(|(k, v)| (k.clone(), v.clone())));
            }
            ErrorDetail::BadRequest(bad) => {
                self.field_violations
                    .extend(bad.field_violations.iter().map(|v| Violation {
                        field: v.field.clone(),
                        description: v.description.clone(),
                    }));
            }
            ErrorDetail::RetryInfo(retry) => self.retry_delay = retry.retry_delay.map(duration),
            _ => {}
        }
    }
}

impl From<ApiError> for ErrorBody {
    fn from(e: ApiError) -> Self {
        Self::from_status(&Status::from(e))
    }
}

fn duration(d: std::time::Duration) -> String {
    format!("{}s", d.as_secs_f64())
}

/// One detail in the JSON form of `Any`.
fn detail_json(detail: ErrorDetail) -> Option<Value> {
    let (name, body) = detail_body(detail)?;
    let mut object = Map::new();
    object.insert("@type".into(), Value::String(format!("{PREFIX}{name}")));
    if let Value::Object(fields) = body {
        object.extend(fields);
    }
    Some(Value::Object(object))
}

fn detail_body(detail: ErrorDetail) -> Option<(&'static str, Value)> {
    Some(match detail {
        ErrorDetail::BadRequest(b) => {
            let violations: Vec<Value> = b
                .field_violations
                .into_iter()
                .map(
                    |v| json!({"field": v.field, "description": v.description, "reason": v.reason}),
                )
                .collect();
            ("BadRequest", json!({ "fieldViolations": violations }))
        }
        ErrorDetail::ErrorInfo(e) => (
            "ErrorInfo",
            json!({"reason": e.reason, "domain": e.domain, "metadata": e.metadata}),
        ),
        ErrorDetail::PreconditionFailure(p) => {
            let violations: Vec<Value> = p
                .violations
                .into_iter()
                .map(|v| json!({"type": v.r#type, "subject": v.subject, "description": v.description}))
                .collect();
            ("PreconditionFailure", json!({ "violations": violations }))
        }
        ErrorDetail::ResourceInfo(r) => (
            "ResourceInfo",
            json!({
                "resourceType": r.resource_type,
                "resourceName": r.resource_name,
                "owner": r.owner,
                "description": r.description,
            }),
        ),
        ErrorDetail::RetryInfo(r) => (
            "RetryInfo",
            json!({ "retryDelay": r.retry_delay.map(duration) }),
        ),
        ErrorDetail::LocalizedMessage(m) => (
            "LocalizedMessage",
            json!({"locale": m.locale, "message": m.message}),
        ),
        ErrorDetail::Help(h) => {
            let links: Vec<Value> = h
                .links
                .into_iter()
                .map(|l| json!({"description": l.description, "url": l.url}))
                .collect();
            ("Help", json!({ "links": links }))
        }
        ErrorDetail::RequestInfo(r) => (
            "RequestInfo",
            json!({"requestId": r.request_id, "servingData": r.serving_data}),
        ),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use tonic::Code;

    use super::*;

    #[test]
    fn a_rule_refusal_shows_code_reason_and_info() {
        let body = ErrorBody::from(ApiError::from(skit_engine::MoveError::MustBeat));

        assert_eq!(body.code, "FAILED_PRECONDITION");
        assert_eq!(body.reason, "must_beat");
        assert_eq!(body.details[0]["@type"], format!("{PREFIX}ErrorInfo"));
        assert_eq!(body.details[0]["domain"], "skitgubbe");
    }

    #[test]
    fn a_plain_status_takes_its_reason_from_the_trailer_or_its_class() {
        let plain = Status::new(Code::NotFound, "gone");
        let mut tagged = Status::new(Code::FailedPrecondition, "no");
        tagged
            .metadata_mut()
            .insert(CODE_TRAILER, "no_open_seat".parse().expect("ascii"));

        assert_eq!(ErrorBody::from_status(&plain).reason, "not_found");
        assert_eq!(ErrorBody::from_status(&tagged).reason, "no_open_seat");
        assert!(ErrorBody::from_status(&plain).details.is_empty());
    }

    #[test]
    fn metadata_fields_and_retry_come_to_the_top() {
        let outage = ErrorBody::from(ApiError::unavailable(
            "down",
            std::time::Duration::from_millis(1500),
        ));
        let stale = ErrorBody::from(ApiError::stale(1, 4));
        let bad = ErrorBody::from(ApiError::invalid("seat", "no seat 9"));

        assert_eq!(outage.retry_delay.as_deref(), Some("1.5s"));
        assert_eq!(stale.metadata["current_version"], "4");
        assert_eq!(stale.retry_delay, None);
        assert_eq!(
            bad.field_violations,
            [Violation {
                field: "seat".into(),
                description: "no seat 9".into()
            }]
        );
    }
}

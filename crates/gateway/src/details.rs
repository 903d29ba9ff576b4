//! Rich gRPC error details (`google.rpc.*` in `grpc-status-details-bin`)
//! rendered in the protobuf JSON form of `Any`, as grpc-gateway does, so a
//! REST client learns which rule or option was broken and with which card.

use serde_json::{Map, Value, json};
use tonic::Status;
use tonic_types::{ErrorDetail, StatusExt};

const PREFIX: &str = "type.googleapis.com/google.rpc.";

/// The details a client may see. `DebugInfo` is left out on purpose: stack
/// entries are for logs, not for callers.
pub(crate) fn details_json(status: &Status) -> Vec<Value> {
    status
        .get_error_details_vec()
        .into_iter()
        .filter_map(|detail| {
            let (name, body) = detail_body(detail)?;
            let mut object = Map::new();
            object.insert("@type".into(), Value::String(format!("{PREFIX}{name}")));
            if let Value::Object(fields) = body {
                object.extend(fields);
            }
            Some(Value::Object(object))
        })
        .collect()
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
        ErrorDetail::RetryInfo(r) => {
            let delay = r.retry_delay.map(|d| format!("{}s", d.as_secs_f64()));
            ("RetryInfo", json!({ "retryDelay": delay }))
        }
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

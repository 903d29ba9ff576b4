//! Scalar fields and the well-known types as JSON Schema, in the forms the
//! protobuf JSON mapping writes them: 64-bit integers as decimal strings,
//! timestamps as RFC 3339, durations as `"1.5s"`, a `Struct` as an object.

use prost_reflect::Kind;
use serde_json::{Value, json};
use skit_api::text;

/// The schema of one scalar value of `kind`.
pub(super) fn scalar(kind: &Kind) -> Value {
    match kind {
        Kind::Double => json!({"type": "number", "format": "double"}),
        Kind::Float => json!({"type": "number", "format": "float"}),
        Kind::Int32 | Kind::Sint32 | Kind::Sfixed32 => json!({
            "type": "integer", "format": "int32", "minimum": i32::MIN, "maximum": i32::MAX,
        }),
        Kind::Uint32 | Kind::Fixed32 => {
            json!({"type": "integer", "format": "int64", "minimum": 0, "maximum": u32::MAX})
        }
        // A string that is not a decimal number in range is refused. A
        // regular expression cannot bound a number exactly, so the pattern
        // allows the digits every value of the range fits in (18 for a
        // signed, 19 for an unsigned 64-bit integer: below 2^63 and 2^64).
        Kind::Int64 | Kind::Sint64 | Kind::Sfixed64 => {
            json!({"type": "string", "format": "int64", "pattern": "^-?[0-9]{1,18}$"})
        }
        Kind::Uint64 | Kind::Fixed64 => {
            json!({"type": "string", "format": "uint64", "pattern": "^[0-9]{1,19}$"})
        }
        Kind::Bool => json!({"type": "boolean"}),
        Kind::String => json!({"type": "string"}),
        Kind::Bytes => json!({"type": "string", "format": "byte"}),
        Kind::Message(_) | Kind::Enum(_) => json!({}),
    }
}

/// A string that holds what `format` names (`(skitgubbe.v1.format)`). An
/// id or a name is bounded exactly as the service checks it
/// (`skit_api::text`), not given as a format.
pub(super) fn formatted_string(format: &str) -> Value {
    match format {
        "int64" => scalar(&Kind::Int64),
        "device" => json!({"type": "string", "pattern": "^[A-Za-z0-9_.:-]{16,128}$"}),
        "id" => json!({
            "type": "string", "maxLength": text::ID_MAX_CHARS, "pattern": text::ID_PATTERN,
        }),
        // No maxLength: whitespace around a name does not count.
        "name" => json!({"type": "string", "pattern": text::name_pattern()}),
        other => json!({"type": "string", "format": other}),
    }
}

/// The well-known types' special JSON forms, inlined.
pub(super) fn well_known(full_name: &str) -> Option<Value> {
    Some(match full_name {
        "google.protobuf.Struct" => json!({"type": "object", "additionalProperties": true}),
        "google.protobuf.Value" => json!({"description": "Any JSON value."}),
        "google.protobuf.ListValue" => json!({"type": "array", "items": {}}),
        "google.protobuf.Timestamp" => json!({"type": "string", "format": "date-time"}),
        "google.protobuf.Duration" => {
            json!({"type": "string", "pattern": "^-?[0-9]+(\\.[0-9]+)?s$", "example": "1.5s"})
        }
        "google.protobuf.Empty" => json!({"type": "object", "additionalProperties": false}),
        "google.protobuf.FieldMask" => json!({"type": "string"}),
        "google.protobuf.Any" => {
            json!({"type": "object", "properties": {"@type": {"type": "string"}}, "additionalProperties": true})
        }
        "google.protobuf.BoolValue" => json!({"type": "boolean"}),
        "google.protobuf.StringValue" => json!({"type": "string"}),
        "google.protobuf.BytesValue" => json!({"type": "string", "format": "byte"}),
        "google.protobuf.Int32Value" | "google.protobuf.UInt32Value" => json!({"type": "integer"}),
        "google.protobuf.Int64Value" | "google.protobuf.UInt64Value" => json!({"type": "string"}),
        "google.protobuf.FloatValue" | "google.protobuf.DoubleValue" => json!({"type": "number"}),
        _ => return None,
    })
}

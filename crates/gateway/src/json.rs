//! JSON as the REST face writes it: the messages' protobuf JSON mapping,
//! with every number in its shortest form.
//!
//! A `google.protobuf.Struct` holds every number as a double, so a ruleset's
//! `"phase2.min": 2` would otherwise come back as `2.0`, which a typed client
//! reads as a float where it sent an integer. Like JavaScript and Go's
//! `protojson`, a whole double is written without a fraction (`2`, `25`);
//! the JSON number is the same, so clients that read doubles are unaffected.
//! gRPC is untouched: there the value stays a double.

use std::io;

use axum::{
    http::{HeaderValue, header},
    response::{IntoResponse, Response},
};
use serde::Serialize;
use serde_json::ser::{CompactFormatter, Formatter, Serializer};
use skit_api::ApiError;

use crate::error::RestError;

/// The largest magnitude below which every whole double is an exact
/// integer (2^53); larger ones keep the float form, which is exact.
const EXACT_INTEGERS: f64 = 9_007_199_254_740_992.0;

/// A response body written by [`to_vec`].
#[derive(Debug)]
pub struct JsonBody<T>(pub T);

impl<T: Serialize> IntoResponse for JsonBody<T> {
    fn into_response(self) -> Response {
        match to_vec(&self.0) {
            Ok(bytes) => (
                [(
                    header::CONTENT_TYPE,
                    HeaderValue::from_static("application/json"),
                )],
                bytes,
            )
                .into_response(),
            Err(error) => RestError::from(ApiError::internal("message not serializable", &error))
                .into_response(),
        }
    }
}

/// `value` as compact JSON, whole numbers as integers.
pub fn to_vec<T: Serialize + ?Sized>(value: &T) -> serde_json::Result<Vec<u8>> {
    let mut bytes = Vec::with_capacity(256);
    value.serialize(&mut Serializer::with_formatter(&mut bytes, WholeNumbers))?;
    Ok(bytes)
}

/// [`to_vec`] as text.
pub fn to_string<T: Serialize + ?Sized>(value: &T) -> serde_json::Result<String> {
    let bytes = to_vec(value)?;
    // serde_json writes only UTF-8; the conversion cannot fail.
    String::from_utf8(bytes).map_err(|e| serde::ser::Error::custom(e.to_string()))
}

/// serde_json's compact output, but whole doubles without a fraction.
struct WholeNumbers;

impl Formatter for WholeNumbers {
    fn write_f64<W: ?Sized + io::Write>(&mut self, writer: &mut W, value: f64) -> io::Result<()> {
        if value.fract() == 0.0 && value.abs() < EXACT_INTEGERS {
            // In range and whole, so the conversion is exact.
            return self.write_i64(writer, value as i64);
        }
        CompactFormatter.write_f64(writer, value)
    }

    fn write_f32<W: ?Sized + io::Write>(&mut self, writer: &mut W, value: f32) -> io::Result<()> {
        if value.fract() == 0.0 && f64::from(value).abs() < EXACT_INTEGERS {
            return self.write_i64(writer, value as i64);
        }
        CompactFormatter.write_f32(writer, value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(value: &serde_json::Value) -> String {
        to_string(value).expect("serializable")
    }

    #[test]
    fn whole_doubles_are_written_as_integers() {
        let value = serde_json::json!({"min": 2.0, "limit": 2000.0, "negative": -3.0});
        assert_eq!(text(&value), r#"{"limit":2000,"min":2,"negative":-3}"#);
    }

    #[test]
    fn fractions_and_huge_numbers_keep_their_float_form() {
        let value = serde_json::json!([1.5, 0.1, 1e300, 18_446_744_073_709_551_615_u64]);
        assert_eq!(text(&value), "[1.5,0.1,1e+300,18446744073709551615]");
    }

    #[test]
    fn struct_options_come_back_as_integers() {
        let rules: skit_proto::v1::Rules = serde_json::from_value(serde_json::json!({
            "preset": "mattis",
            "options": {"phase2.min": 3, "between.low_cards": {"threshold": 5}}
        }))
        .expect("rules");
        let text = to_string(&rules).expect("serializable");
        // Parsed back, an integer literal is a u64 and `3.0` would be an f64.
        let parsed: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        assert_eq!(parsed["options"]["phase2.min"].as_u64(), Some(3), "{text}");
        let low_cards = &parsed["options"]["between.low_cards"];
        assert_eq!(low_cards["threshold"].as_u64(), Some(5), "{text}");
    }
}

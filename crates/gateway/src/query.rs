//! Query parameters to request messages, typed by the message descriptor:
//! `?seat=1&waitForVersionAfter=7&spectator=true` becomes the JSON object
//! `{"seat": 1, "waitForVersionAfter": "7", "spectator": true}` and then the
//! message through its protobuf JSON impl, so the query accepts exactly the
//! fields (by JSON or proto name) the message has. A message-typed field
//! takes its JSON text: `?rules={"preset":"mas"}` (URL-encoded), but for
//! the well-known types written as a JSON string ([`PLAIN_TEXT`]), which
//! take that string as is: `?at=2025-03-01T00:00:00Z`.

use prost_reflect::{DescriptorPool, FieldDescriptor, Kind, MessageDescriptor};
use serde::de::DeserializeOwned;
use serde_json::{Map, Number, Value};

use skit_api::ApiError;

use crate::{error::RestError, json_path};

/// The well-known messages whose JSON form is a string, given in a query
/// as that string's plain text (and documented as such, [`crate::openapi`]).
pub(crate) const PLAIN_TEXT: [&str; 3] = [
    "google.protobuf.Timestamp",
    "google.protobuf.Duration",
    "google.protobuf.FieldMask",
];

/// Whether a query parameter of `kind` is plain text rather than JSON text.
pub(crate) fn is_plain_text(kind: &Kind) -> bool {
    match kind {
        Kind::Message(message) => PLAIN_TEXT.contains(&message.full_name()),
        _ => false,
    }
}

/// Decodes query strings into messages of one descriptor pool.
#[derive(Debug, Clone)]
pub struct QueryDecoder {
    pool: DescriptorPool,
}

impl QueryDecoder {
    pub fn new(pool: DescriptorPool) -> Self {
        Self { pool }
    }

    /// Decodes `query` into the message named `full_name`
    /// (e.g. `skitgubbe.v1.GetViewRequest`).
    pub fn decode<T: DeserializeOwned>(
        &self,
        full_name: &str,
        query: Option<&str>,
    ) -> Result<T, RestError> {
        let message = self.pool.get_message_by_name(full_name).ok_or_else(|| {
            RestError::from(ApiError::invariant(&format!(
                "no descriptor for {full_name}"
            )))
        })?;
        let pairs: Vec<(String, String)> = serde_urlencoded::from_str(query.unwrap_or(""))
            .map_err(|e| RestError::invalid_argument(format!("malformed query string: {e}")))?;
        let object = to_object(&message, pairs)?;
        serde_path_to_error::deserialize(Value::Object(object)).map_err(|e| {
            let path = json_path::segments(e.path());
            let field = json_path::locate(Some(message), &path).field;
            if field.is_empty() {
                RestError::invalid_argument(format!("invalid query parameter: {}", e.inner()))
            } else {
                RestError::invalid_field(&field, e.inner().to_string())
            }
        })
    }
}

fn to_object(
    message: &MessageDescriptor,
    pairs: Vec<(String, String)>,
) -> Result<Map<String, Value>, RestError> {
    let mut object = Map::new();
    for (key, raw) in pairs {
        let field = message
            .get_field_by_json_name(&key)
            .or_else(|| message.get_field_by_name(&key))
            .ok_or_else(|| {
                RestError::invalid_field(
                    &key,
                    format!("unknown query parameter for {}", message.name()),
                )
            })?;
        let value = scalar(&field, &key, &raw)?;
        let name = field.json_name().to_owned();
        if field.is_list() {
            let entry = object
                .entry(name)
                .or_insert_with(|| Value::Array(Vec::new()));
            if let Value::Array(items) = entry {
                items.push(value);
            }
        } else if object.insert(name, value).is_some() {
            return Err(RestError::invalid_field(
                &key,
                "query parameter given twice",
            ));
        }
    }
    Ok(object)
}

fn scalar(field: &FieldDescriptor, key: &str, raw: &str) -> Result<Value, RestError> {
    let bad = |what: &str| RestError::invalid_field(key, format!("expected {what}, got `{raw}`"));
    Ok(match field.kind() {
        Kind::Bool => match raw {
            "true" | "1" | "" => Value::Bool(true),
            "false" | "0" => Value::Bool(false),
            _ => return Err(bad("true or false")),
        },
        Kind::Int32 | Kind::Sint32 | Kind::Sfixed32 => Value::Number(
            raw.parse::<i32>()
                .map_err(|_| bad("a 32-bit integer"))?
                .into(),
        ),
        Kind::Uint32 | Kind::Fixed32 => Value::Number(
            raw.parse::<u32>()
                .map_err(|_| bad("an unsigned 32-bit integer"))?
                .into(),
        ),
        // 64-bit integers stay strings, as in the JSON mapping; parsing here
        // only checks them.
        Kind::Int64 | Kind::Sint64 | Kind::Sfixed64 => {
            raw.parse::<i64>().map_err(|_| bad("a 64-bit integer"))?;
            Value::String(raw.to_owned())
        }
        Kind::Uint64 | Kind::Fixed64 => {
            raw.parse::<u64>()
                .map_err(|_| bad("an unsigned 64-bit integer"))?;
            Value::String(raw.to_owned())
        }
        Kind::Float | Kind::Double => {
            let n = raw.parse::<f64>().map_err(|_| bad("a number"))?;
            Value::Number(Number::from_f64(n).ok_or_else(|| bad("a finite number"))?)
        }
        Kind::String | Kind::Bytes | Kind::Enum(_) => Value::String(raw.to_owned()),
        // Checked by the message's JSON impl, which names the field.
        kind if is_plain_text(&kind) => Value::String(raw.to_owned()),
        // A message is given as its JSON text, e.g. `rules={"preset":"mas"}`.
        Kind::Message(_) if !field.is_map() => match serde_json::from_str::<Value>(raw) {
            Ok(value @ Value::Object(_)) => value,
            _ => return Err(bad("a JSON object")),
        },
        Kind::Message(_) => {
            return Err(RestError::invalid_field(
                key,
                "a map cannot be set from the query",
            ));
        }
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use skit_proto::v1::{GetLeaderboardRequest, GetSeasonStandingsRequest};

    use super::*;
    use crate::descriptors;

    fn decoder() -> QueryDecoder {
        QueryDecoder::new(descriptors::pool())
    }

    #[test]
    fn a_timestamp_is_its_plain_text() {
        let query = "limit=5&at=2025-03-02T10:00:00Z";

        let message: GetSeasonStandingsRequest = decoder()
            .decode("skitgubbe.v1.GetSeasonStandingsRequest", Some(query))
            .unwrap();

        assert_eq!(message.limit, 5);
        let at = message.at.unwrap();
        assert_eq!((at.seconds, at.nanos), (1_740_909_600, 0));
    }

    #[test]
    fn a_bad_timestamp_is_refused_naming_the_parameter() {
        let refused = decoder()
            .decode::<GetSeasonStandingsRequest>(
                "skitgubbe.v1.GetSeasonStandingsRequest",
                Some("at=yesterday"),
            )
            .unwrap_err();

        assert_eq!(refused.body().field_violations[0].field, "at");
    }

    #[test]
    fn other_messages_stay_json_text() {
        let rules = "rules=%7B%22preset%22%3A%22mas%22%7D";

        let message: GetLeaderboardRequest = decoder()
            .decode("skitgubbe.v1.GetLeaderboardRequest", Some(rules))
            .unwrap();
        let refused = decoder()
            .decode::<GetLeaderboardRequest>(
                "skitgubbe.v1.GetLeaderboardRequest",
                Some("rules=mas"),
            )
            .unwrap_err();

        assert_eq!(message.rules.unwrap().preset, "mas");
        assert_eq!(refused.body().field_violations[0].field, "rules");
    }
}

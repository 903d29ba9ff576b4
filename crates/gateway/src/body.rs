//! A JSON request body read into its message, or refused naming what is
//! wrong: `malformed_json`, with the field at fault (as the services name
//! fields, [`crate::json_path`]) in `fieldViolations` and the message, and
//! what the field expects where serde's own text does not say (a number in
//! the protobuf JSON mapping that is negative, fractional or a word fails
//! as "data did not match any variant").

use prost_reflect::MessageDescriptor;
use serde::de::DeserializeOwned;
use serde_json::Value;
use skit_api::{ApiError, ErrorCode};

use crate::{descriptors, error::RestError, json_path};

/// The reason of every body the JSON layer refuses.
pub(crate) const MALFORMED_JSON: &str = "malformed_json";

/// The longest piece of the offending value quoted back.
const QUOTED_CHARS: usize = 40;

/// `bytes` (not blank) as a `T`, the message named `name` (its
/// descriptor's full name, which names the fields in a refusal).
pub(crate) fn parse<T: DeserializeOwned>(bytes: &[u8], name: &str) -> Result<T, RestError> {
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    let message = serde_path_to_error::deserialize(&mut deserializer)
        .map_err(|error| refusal(bytes, name, &error))?;
    // Trailing characters after the value.
    deserializer
        .end()
        .map_err(|error| malformed(error.to_string()))?;
    Ok(message)
}

fn malformed(text: String) -> RestError {
    RestError::content(ApiError::new(
        ErrorCode::InvalidArgument,
        MALFORMED_JSON,
        format!("malformed JSON body: {text}"),
    ))
}

/// Why `bytes` is not a `name`, naming the field when the error lies in
/// one (not for a syntax error between values, say).
fn refusal(
    bytes: &[u8],
    name: &str,
    error: &serde_path_to_error::Error<serde_json::Error>,
) -> RestError {
    let inner = error.inner();
    let path = json_path::segments(error.path());
    if path.is_empty() {
        return malformed(inner.to_string());
    }
    let message: Option<MessageDescriptor> = descriptors::pool().get_message_by_name(name);
    let located = json_path::locate(message, &path);
    let description = match located.expected {
        Some(expected) => {
            let got = serde_json::from_slice::<Value>(bytes)
                .ok()
                .and_then(|body| json_path::value_at(&body, &path).map(quoted));
            let got = got.map(|got| format!(", got {got}")).unwrap_or_default();
            format!(
                "expected {expected}{got} at line {} column {}",
                inner.line(),
                inner.column()
            )
        }
        None => inner.to_string(),
    };
    RestError::content(
        ApiError::new(
            ErrorCode::InvalidArgument,
            MALFORMED_JSON,
            format!("malformed JSON body: {}: {description}", located.field),
        )
        .with_violation(located.field, description),
    )
}

/// `value` as compact JSON, shortened.
fn quoted(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() <= QUOTED_CHARS {
        return text;
    }
    let mut short: String = text.chars().take(QUOTED_CHARS).collect();
    short.push('…');
    short
}

#[cfg(test)]
mod tests {
    use skit_proto::v1::{CreateGameRequest, SubmitMoveRequest};

    use super::*;

    fn refused<T: DeserializeOwned + std::fmt::Debug>(text: &str) -> RestError {
        // `skit_proto::v1::CreateGameRequest` is `skitgubbe.v1.CreateGameRequest`.
        let rust = std::any::type_name::<T>();
        let name = format!("skitgubbe.v1.{}", rust.rsplit("::").next().unwrap_or(rust));
        parse::<T>(text.as_bytes(), &name).expect_err(text)
    }

    #[test]
    fn a_wrong_number_names_the_field_what_it_expects_and_what_it_got() {
        let error = refused::<CreateGameRequest>(r#"{"players": -2}"#);

        let body = error.body();
        assert_eq!(body.reason, MALFORMED_JSON);
        assert_eq!(body.field_violations[0].field, "players");
        let description = &body.field_violations[0].description;
        assert!(
            description.starts_with("expected an unsigned integer (32-bit), got -2 at line 1"),
            "{description}"
        );
        assert_eq!(
            body.message,
            format!("malformed JSON body: players: {description}")
        );
    }

    #[test]
    fn a_fraction_and_a_negative_string_are_named_too() {
        let seat = refused::<SubmitMoveRequest>(r#"{"moveId": "m", "seat": 1.5}"#);
        let version = refused::<SubmitMoveRequest>(r#"{"expectedVersion": "-1"}"#);

        assert_eq!(seat.body().field_violations[0].field, "seat");
        assert!(seat.body().message.contains("got 1.5"), "{:?}", seat.body());
        assert_eq!(version.body().field_violations[0].field, "expected_version");
        assert!(
            version.body().message.contains(r#"got "-1""#),
            "{:?}",
            version.body()
        );
    }

    #[test]
    fn other_errors_keep_serdes_words_and_name_the_field() {
        let unknown = refused::<CreateGameRequest>(r#"{"playerz": 3}"#);
        let flag = refused::<CreateGameRequest>(r#"{"rated": "yes"}"#);
        let syntax = refused::<CreateGameRequest>(r#"{"players": 3,"#);
        let trailing = refused::<CreateGameRequest>(r#"{"players": 3} x"#);

        assert_eq!(unknown.body().field_violations[0].field, "playerz");
        assert!(
            unknown.body().message.contains("unknown field"),
            "{:?}",
            unknown.body()
        );
        assert_eq!(flag.body().field_violations[0].field, "rated");
        assert!(
            flag.body().message.contains("expected a boolean"),
            "{:?}",
            flag.body()
        );
        for error in [syntax, trailing] {
            assert!(
                error.body().field_violations.is_empty(),
                "{:?}",
                error.body()
            );
            assert!(
                error.body().message.contains("line 1 column"),
                "{:?}",
                error.body()
            );
        }
    }

    #[test]
    fn a_long_value_is_shortened() {
        let long = format!(r#"{{"players": "{}"}}"#, "9".repeat(100));

        let error = refused::<CreateGameRequest>(&long);

        assert!(error.body().message.contains("99…"), "{:?}", error.body());
        assert!(error.body().message.len() < 200, "{:?}", error.body());
    }
}

//! Where in a request message a JSON error lies, as the services name
//! fields: proto names, dotted, with indexes (`action.play.cards[0]`,
//! `expected_version`, `player_counts[1]`), and what that field expects,
//! read from the message's descriptor.
//!
//! The path is serde's (`serde_path_to_error`), whose keys are the JSON
//! names a client used (`expectedVersion` or `expected_version`). Inside a
//! map or a well-known type (a ruleset's `options`, a `Struct`) the keys
//! are the client's own and are kept as given.

use prost_reflect::{FieldDescriptor, Kind, MessageDescriptor};
use serde_json::Value;
use serde_path_to_error::{Path, Segment};

/// A request field at fault.
#[derive(Debug)]
pub(crate) struct Located {
    /// The field's name, dotted, with indexes.
    pub field: String,
    /// What the field (or the element of a repeated field) holds, for the
    /// numbers, whose parse errors do not say; `None` where serde's own
    /// message says it.
    pub expected: Option<&'static str>,
}

/// The segments of `path` that locate something: a syntax error where a
/// key was due ends in an unknown segment, which says no more than its
/// parent does. Empty when the error lies in no field.
pub(crate) fn segments(path: &Path) -> Vec<&Segment> {
    let mut segments: Vec<&Segment> = path.iter().collect();
    while segments
        .last()
        .is_some_and(|s| matches!(s, Segment::Unknown))
    {
        segments.pop();
    }
    segments
}

/// Locates `path` (its [`segments`]) in `message` (if its descriptor is
/// known).
pub(crate) fn locate(message: Option<MessageDescriptor>, path: &[&Segment]) -> Located {
    let mut field = String::new();
    let mut within = message;
    // The last field reached, and whether the path went on into one of its
    // elements.
    let mut leaf: Option<(FieldDescriptor, bool)> = None;
    for segment in path {
        match segment {
            Segment::Map { key } => {
                let found = within.as_ref().and_then(|m| field_of(m, key));
                match found {
                    Some(found) => {
                        push_name(&mut field, found.name());
                        within = match found.kind() {
                            Kind::Message(inner) if !found.is_list() && !opaque(&inner) => {
                                Some(inner)
                            }
                            _ => None,
                        };
                        leaf = Some((found, false));
                    }
                    None => {
                        push_name(&mut field, key);
                        (within, leaf) = (None, None);
                    }
                }
            }
            Segment::Seq { index } => {
                field.push_str(&format!("[{index}]"));
                leaf = match leaf {
                    Some((list, false)) if list.is_list() => {
                        within = match list.kind() {
                            Kind::Message(inner) if !opaque(&inner) => Some(inner),
                            _ => None,
                        };
                        Some((list, true))
                    }
                    _ => {
                        within = None;
                        None
                    }
                };
            }
            Segment::Enum { variant } => {
                push_name(&mut field, variant);
                (within, leaf) = (None, None);
            }
            Segment::Unknown => {
                push_name(&mut field, "?");
                (within, leaf) = (None, None);
            }
        }
    }
    let expected = leaf.and_then(|(found, element)| expected(&found, element));
    Located { field, expected }
}

/// The value at `path` in `value`, if it is there.
pub(crate) fn value_at<'v>(value: &'v Value, path: &[&Segment]) -> Option<&'v Value> {
    path.iter().try_fold(value, |value, segment| match segment {
        Segment::Map { key } => value.get(key.as_str()),
        Segment::Seq { index } => value.get(index),
        Segment::Enum { .. } | Segment::Unknown => None,
    })
}

/// The field of `message` a JSON key names (JSON name or proto name).
fn field_of(message: &MessageDescriptor, key: &str) -> Option<FieldDescriptor> {
    message
        .get_field_by_json_name(key)
        .or_else(|| message.get_field_by_name(key))
}

/// Types whose JSON form is not their fields: maps of the client's keys
/// (`Struct`), strings (`Duration`, `Timestamp`), any value.
fn opaque(message: &MessageDescriptor) -> bool {
    message.full_name().starts_with("google.protobuf.") || message.is_map_entry()
}

fn push_name(field: &mut String, name: &str) {
    if !field.is_empty() {
        field.push('.');
    }
    field.push_str(name);
}

/// What a numeric field (or one element of a repeated one) expects.
fn expected(field: &FieldDescriptor, element: bool) -> Option<&'static str> {
    if (field.is_list() || field.is_map()) && !element {
        return None;
    }
    Some(match field.kind() {
        Kind::Int32 | Kind::Sint32 | Kind::Sfixed32 => "a 32-bit integer",
        Kind::Uint32 | Kind::Fixed32 => "an unsigned integer (32-bit)",
        Kind::Int64 | Kind::Sint64 | Kind::Sfixed64 => {
            "a 64-bit integer (a JSON number or a decimal string)"
        }
        Kind::Uint64 | Kind::Fixed64 => {
            "an unsigned integer (64-bit; a JSON number or a decimal string)"
        }
        Kind::Float | Kind::Double => "a number",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;
    use serde_json::json;

    use super::*;
    use crate::descriptors;

    /// The path serde reports for the JSON `text` read as `T`.
    fn failing_path<T: for<'de> Deserialize<'de>>(text: &str) -> Path {
        let mut deserializer = serde_json::Deserializer::from_str(text);
        match serde_path_to_error::deserialize::<_, T>(&mut deserializer) {
            Ok(_) => panic!("{text} was accepted"),
            Err(error) => error.path().clone(),
        }
    }

    fn locate_in<T: for<'de> Deserialize<'de>>(name: &str, body: impl ToString) -> Located {
        let message = descriptors::pool().get_message_by_name(name);
        assert!(message.is_some(), "no descriptor {name}");
        locate(message, &segments(&failing_path::<T>(&body.to_string())))
    }

    #[test]
    fn a_number_of_the_wrong_sign_or_kind_is_named_by_its_proto_name() {
        use skit_proto::v1::{CreateGameRequest, SubmitMoveRequest};

        let players = locate_in::<CreateGameRequest>(
            "skitgubbe.v1.CreateGameRequest",
            json!({"players": -2}),
        );
        let version = locate_in::<SubmitMoveRequest>(
            "skitgubbe.v1.SubmitMoveRequest",
            json!({"moveId": "m", "expectedVersion": -1}),
        );

        assert_eq!(players.field, "players");
        assert_eq!(players.expected, Some("an unsigned integer (32-bit)"));
        assert_eq!(version.field, "expected_version");
        assert!(version.expected.is_some_and(|e| e.contains("64-bit")));
    }

    #[test]
    fn nested_and_repeated_fields_carry_their_indexes() {
        use skit_proto::v1::{CreateGameRequest, EnqueueRequest, SubmitMoveRequest};

        let count = locate_in::<EnqueueRequest>(
            "skitgubbe.v1.EnqueueRequest",
            json!({"playerCounts": [2, 1.5]}),
        );
        let card = locate_in::<SubmitMoveRequest>(
            "skitgubbe.v1.SubmitMoveRequest",
            json!({"action": {"play": {"cards": ["7S", 7]}}}),
        );
        let seat = locate_in::<CreateGameRequest>(
            "skitgubbe.v1.CreateGameRequest",
            json!({"seats": [{}, {"accountId": 5}]}),
        );

        assert_eq!(count.field, "player_counts[1]");
        assert_eq!(count.expected, Some("an unsigned integer (32-bit)"));
        assert_eq!(card.field, "action.play.cards[1]");
        assert_eq!(card.expected, None);
        assert_eq!(seat.field, "seats[1].account_id");
        assert_eq!(seat.expected, None);
    }

    #[test]
    fn keys_of_a_struct_are_kept_as_given() {
        use skit_proto::v1::CreateGameRequest;

        let option = locate_in::<CreateGameRequest>(
            "skitgubbe.v1.CreateGameRequest",
            r#"{"rules": {"preset": "mas", "options": {"x.y": {"a": [1, "\ud800"]}}}}"#,
        );

        assert_eq!(option.field, "rules.options.x.y.a[1]");
        assert_eq!(option.expected, None);
    }

    #[test]
    fn a_syntax_error_where_a_key_was_due_lies_in_the_parent() {
        use skit_proto::v1::CreateGameRequest;

        let root = failing_path::<CreateGameRequest>(r#"{"players": 3,"#);
        let seat = failing_path::<CreateGameRequest>(r#"{"seats": [{"accountId": "1","#);

        assert!(segments(&root).is_empty(), "{root}");
        let message = descriptors::pool().get_message_by_name("skitgubbe.v1.CreateGameRequest");
        assert_eq!(locate(message, &segments(&seat)).field, "seats[0]");
    }

    #[test]
    fn the_value_at_a_path_is_found() {
        use skit_proto::v1::CreateGameRequest;
        let body = json!({"seats": [{}, {"accountId": true}]});
        let path = failing_path::<CreateGameRequest>(&body.to_string());

        assert_eq!(value_at(&body, &segments(&path)), Some(&json!(true)));
    }
}

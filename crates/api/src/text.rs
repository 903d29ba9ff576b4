//! Text a request carries into the store, checked at the API boundary so a
//! refusal names the field (INVALID_ARGUMENT) on every database alike.
//!
//! - [`stored`]: any free text that is stored or looked up: no NUL, which
//!   PostgreSQL's `text` and `jsonb` cannot hold. Lone surrogates never get
//!   this far: JSON parsing and protobuf's UTF-8 check refuse them first.
//! - [`id`]: an id a client chooses (a move id): stored text of at most
//!   [`ID_MAX_CHARS`] characters. Idempotency keys have a stricter check of
//!   their own ([`crate::request_id()`]).
//! - [`name`]: a name shown to other players: trimmed, 1 to
//!   [`NAME_MAX_CHARS`] characters, with no control characters (line breaks
//!   included) and no bidirectional formatting characters, which could
//!   reorder the text around the name where it is shown.
//! - [`stored_json`]: every key and string of a JSON value (a ruleset's
//!   options) as [`stored`] checks them.
//!
//! [`name_pattern`] and [`ID_PATTERN`] say the same as regular expressions,
//! for the OpenAPI document.

use serde_json::Value;

use crate::ApiError;

/// The most characters a name may have once trimmed.
pub const NAME_MAX_CHARS: usize = 40;

/// The most characters of an id a client chooses.
pub const ID_MAX_CHARS: usize = 128;

/// The text [`stored`] accepts, as a regular expression (ECMA-262 and Rust
/// `regex` alike).
pub const ID_PATTERN: &str = r"^[^\u0000]*$";

/// Control characters (Unicode general category Cc), as
/// `char::is_control` finds them.
const CONTROL: &[(char, char)] = &[('\u{0000}', '\u{001F}'), ('\u{007F}', '\u{009F}')];

/// The whitespace trimmed around a name, as `str::trim` finds it (the
/// Unicode White_Space property).
const WHITESPACE: &[(char, char)] = &[
    ('\u{0009}', '\u{000D}'),
    ('\u{0020}', '\u{0020}'),
    ('\u{0085}', '\u{0085}'),
    ('\u{00A0}', '\u{00A0}'),
    ('\u{1680}', '\u{1680}'),
    ('\u{2000}', '\u{200A}'),
    ('\u{2028}', '\u{2029}'),
    ('\u{202F}', '\u{202F}'),
    ('\u{205F}', '\u{205F}'),
    ('\u{3000}', '\u{3000}'),
];

/// Characters refused anywhere in a name, besides control characters:
/// the Unicode bidirectional marks, embeddings, overrides and isolates, and
/// the line and paragraph separators.
const NAME_FORBIDDEN: &[(char, char)] = &[
    ('\u{061C}', '\u{061C}'),
    ('\u{200E}', '\u{200F}'),
    ('\u{2028}', '\u{2029}'),
    ('\u{202A}', '\u{202E}'),
    ('\u{2066}', '\u{2069}'),
];

/// Refuses `value` as the request field `field` if a database cannot store
/// it: it holds a NUL character.
pub fn stored(field: &str, value: &str) -> Result<(), ApiError> {
    match value.chars().position(|c| c == '\0') {
        Some(at) => Err(ApiError::invalid(
            field,
            format!("must not contain a NUL character (U+0000 at character {at})"),
        )),
        None => Ok(()),
    }
}

/// Refuses the client-chosen id `value` (the request field `field`) if it
/// is longer than [`ID_MAX_CHARS`] characters or [`stored`] refuses it.
/// Whether it may be empty is the caller's to say.
pub fn id(field: &str, value: &str) -> Result<(), ApiError> {
    if value.chars().count() > ID_MAX_CHARS {
        return Err(ApiError::invalid(
            field,
            format!("must be at most {ID_MAX_CHARS} characters"),
        ));
    }
    stored(field, value)
}

/// Refuses `value` as [`stored`] does if any of its keys or strings holds a
/// NUL character, naming the field inside it (`rules.options.deck`).
pub fn stored_json(field: &str, value: &Value) -> Result<(), ApiError> {
    match value {
        Value::String(text) => stored(field, text),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .try_for_each(|(i, item)| stored_json(&format!("{field}[{i}]"), item)),
        Value::Object(object) => object.iter().try_for_each(|(key, item)| {
            let inner = format!("{field}.{key}");
            stored(&inner, key)?;
            stored_json(&inner, item)
        }),
        Value::Null | Value::Bool(_) | Value::Number(_) => Ok(()),
    }
}

/// The name `value` (the request field `field`) trimmed of whitespace, if
/// it is 1 to [`NAME_MAX_CHARS`] characters and holds no control or
/// bidirectional formatting character.
pub fn name(field: &str, value: &str) -> Result<String, ApiError> {
    let trimmed = value.trim();
    let length = trimmed.chars().count();
    if length == 0 || length > NAME_MAX_CHARS {
        return Err(ApiError::invalid(
            field,
            format!("must be 1 to {NAME_MAX_CHARS} characters, not counting spaces around it"),
        ));
    }
    for (at, c) in trimmed.chars().enumerate() {
        let rule = if c.is_control() {
            "control characters (line breaks included)"
        } else if is_bidi_or_separator(c) {
            "bidirectional formatting characters or line separators"
        } else {
            continue;
        };
        return Err(ApiError::invalid(
            field,
            format!(
                "must not contain {rule} (U+{:04X} at character {at})",
                u32::from(c)
            ),
        ));
    }
    Ok(trimmed.to_owned())
}

fn is_bidi_or_separator(c: char) -> bool {
    NAME_FORBIDDEN
        .iter()
        .any(|&(low, high)| (low..=high).contains(&c))
}

/// The names [`name`] accepts (untrimmed, as sent), as a regular
/// expression (ECMA-262 and Rust `regex` alike): optional whitespace, a
/// first and a last character that are neither whitespace nor refused,
/// at most [`NAME_MAX_CHARS`] characters from the first to the last, none
/// of them refused, and optional whitespace.
pub fn name_pattern() -> String {
    let refused: Vec<(char, char)> = CONTROL.iter().chain(NAME_FORBIDDEN).copied().collect();
    let whitespace = class(WHITESPACE, false);
    let edge = class(&[refused.as_slice(), WHITESPACE].concat(), true);
    let inner = class(&refused, true);
    let middle = NAME_MAX_CHARS - 2;
    format!("^{whitespace}*{edge}(?:{inner}{{0,{middle}}}{edge})?{whitespace}*$")
}

/// A character class of `ranges`, or of everything else when `negated`.
fn class(ranges: &[(char, char)], negated: bool) -> String {
    let mut class = String::from(if negated { "[^" } else { "[" });
    for &(low, high) in ranges {
        class.push_str(&format!("\\u{:04X}", u32::from(low)));
        if high != low {
            class.push_str(&format!("-\\u{:04X}", u32::from(high)));
        }
    }
    class.push(']');
    class
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn refusal(result: Result<impl std::fmt::Debug, ApiError>) -> (String, String) {
        let error = result.expect_err("refused");
        let violation = &error.violations()[0];
        (violation.field.clone(), violation.description.clone())
    }

    #[test]
    fn a_nul_is_refused_naming_the_field() {
        assert!(stored("move_id", "m-1 ✓").is_ok());

        let (field, description) = refusal(stored("move_id", "m\0"));

        assert_eq!(field, "move_id");
        assert_eq!(
            description,
            "must not contain a NUL character (U+0000 at character 1)"
        );
    }

    #[test]
    fn a_nul_inside_json_names_its_path() {
        let fine = json!({"preset": "mas", "options": {"a": [1, "b"], "c": null}});
        assert!(stored_json("rules", &fine).is_ok());

        let in_value = json!({"options": {"deck": ["x", "y\u{0}"]}});
        let in_key = json!({"options": {"de\u{0}ck": 1}});

        assert_eq!(
            refusal(stored_json("rules", &in_value)).0,
            "rules.options.deck[1]"
        );
        assert_eq!(
            refusal(stored_json("rules", &in_key)).0,
            "rules.options.de\u{0}ck"
        );
    }

    #[test]
    fn names_are_trimmed_and_limited() {
        assert_eq!(name("name", "  Ann Berg\t").expect("fine"), "Ann Berg");
        assert_eq!(name("name", "Åsa 🂡").expect("fine"), "Åsa 🂡");
        let longest = "x".repeat(NAME_MAX_CHARS);
        assert_eq!(
            name("name", &format!(" {longest} ")).expect("fine"),
            longest
        );

        for bad in ["", "   ", &"é".repeat(NAME_MAX_CHARS + 1)] {
            let (field, description) = refusal(name("name", bad));
            assert_eq!(field, "name");
            assert!(description.starts_with("must be 1 to 40"), "{description}");
        }
    }

    fn within(ranges: &[(char, char)], c: char) -> bool {
        ranges.iter().any(|&(low, high)| (low..=high).contains(&c))
    }

    #[test]
    fn the_tables_agree_with_the_standard_library() {
        for c in (0..=0x10FFFF).filter_map(char::from_u32) {
            assert_eq!(within(CONTROL, c), c.is_control(), "{c:?}");
            assert_eq!(within(WHITESPACE, c), c.is_whitespace(), "{c:?}");
        }
    }

    #[test]
    fn the_pattern_accepts_exactly_the_names_the_check_accepts() {
        let pattern = regex::Regex::new(&name_pattern()).expect("a regular expression");
        let alphabet = [
            'a', 'é', ' ', '\t', '\n', '\0', '\u{85}', '\u{A0}', '\u{200B}', '\u{200F}',
            '\u{2028}', '\u{202E}', '\u{3000}', '\u{FEFF}', '🂡',
        ];
        // Every string of up to four characters of the alphabet.
        let mut names = vec![String::new()];
        let mut longest = vec![String::new()];
        for _ in 0..4 {
            longest = longest
                .iter()
                .flat_map(|n| alphabet.iter().map(move |c| format!("{n}{c}")))
                .collect();
            names.extend(longest.iter().cloned());
        }
        for length in NAME_MAX_CHARS - 1..=NAME_MAX_CHARS + 1 {
            for (pad, inner) in [("", 'x'), (" ", 'x'), ("\u{3000}", ' '), ("\n", '\u{2066}')] {
                let body = format!("a{}a", inner.to_string().repeat(length - 2));
                names.push(format!("{pad}{body}{pad}"));
            }
        }
        assert!(names.len() > 50_000, "{}", names.len());

        for candidate in &names {
            assert_eq!(
                pattern.is_match(candidate),
                name("name", candidate).is_ok(),
                "{candidate:?}"
            );
        }
    }

    #[test]
    fn ids_are_limited_and_storable() {
        let pattern = regex::Regex::new(ID_PATTERN).expect("a regular expression");

        assert!(id("move_id", &"é".repeat(ID_MAX_CHARS)).is_ok());
        assert!(id("move_id", "").is_ok());
        let (field, description) = refusal(id("request_id", &"x".repeat(ID_MAX_CHARS + 1)));
        assert_eq!(field, "request_id");
        assert_eq!(description, "must be at most 128 characters");
        assert_eq!(refusal(id("move_id", "a\0")).0, "move_id");
        assert!(pattern.is_match("a b\n✓") && !pattern.is_match("a\0"));
    }

    #[test]
    fn names_refuse_control_and_bidirectional_characters() {
        let cases = [
            ("a\0b", "control", "U+0000"),
            ("a\nb", "control", "U+000A"),
            ("a\u{85}b", "control", "U+0085"),
            ("a\u{202E}b", "bidirectional", "U+202E"),
            ("a\u{2067}b", "bidirectional", "U+2067"),
            ("a\u{200F}b", "bidirectional", "U+200F"),
            ("a\u{2028}b", "bidirectional", "U+2028"),
        ];
        for (bad, rule, code) in cases {
            let (field, description) = refusal(name("display_name", bad));

            assert_eq!(field, "display_name");
            assert!(description.contains(rule), "{bad:?}: {description}");
            assert!(
                description.contains(&format!("{code} at character 1")),
                "{bad:?}: {description}"
            );
        }
    }
}

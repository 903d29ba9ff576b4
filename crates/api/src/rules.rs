//! An API `Rules` message as the engine reads a ruleset: the one reading
//! the game service, the matchmaker and Rust clients share, so all of them
//! agree on a ruleset and its rating key.

use serde_json::{Value, json};
use skit_engine::Ruleset;
use skit_proto::v1;

use crate::ConvertError;

/// The engine's JSON form of `rules` (absent, or an empty preset: plain
/// `skitgubbe`). Struct numbers are doubles; whole ones go back to
/// integers, which the engine expects.
pub fn rules_json(rules: Option<&v1::Rules>) -> Value {
    let Some(rules) = rules else {
        return json!("skitgubbe");
    };
    let preset = if rules.preset.is_empty() {
        "skitgubbe"
    } else {
        &rules.preset
    };
    let options = rules
        .options
        .as_ref()
        .and_then(|o| serde_json::to_value(o).ok())
        .map(integers)
        .unwrap_or_else(|| json!({}));
    json!({ "preset": preset, "options": options })
}

/// The engine's ruleset for an API `Rules`.
pub fn rules(rules: Option<&v1::Rules>) -> Result<Ruleset, ConvertError> {
    Ruleset::from_json(&rules_json(rules)).map_err(|e| ConvertError::new("rules", e.to_string()))
}

/// A protobuf `Struct` holds every number as a double; the engine expects
/// whole numbers as integers.
fn integers(value: Value) -> Value {
    match value {
        Value::Number(n) => match n.as_f64() {
            Some(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => json!(f as i64),
            _ => Value::Number(n),
        },
        Value::Array(a) => Value::Array(a.into_iter().map(integers).collect()),
        Value::Object(o) => Value::Object(o.into_iter().map(|(k, v)| (k, integers(v))).collect()),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_numbers_become_integers() {
        assert_eq!(
            integers(json!({"a": 2000.0, "b": 1.5, "c": [3.0]})),
            json!({"a": 2000, "b": 1.5, "c": [3]})
        );
    }

    #[test]
    fn struct_numbers_become_integers() {
        let options =
            serde_json::from_value(json!({"phase2.action_limit": 2000, "x": 1.5})).expect("struct");
        let rules = v1::Rules {
            preset: "skitgubbe".into(),
            options: Some(options),
        };
        let value = rules_json(Some(&rules));
        assert_eq!(value["options"]["phase2.action_limit"], json!(2000));
        assert_eq!(value["options"]["x"], json!(1.5));
    }

    #[test]
    fn no_rules_or_no_preset_is_plain_skitgubbe() {
        assert_eq!(rules_json(None), json!("skitgubbe"));
        let empty = v1::Rules::default();
        assert_eq!(
            rules_json(Some(&empty)),
            json!({"preset": "skitgubbe", "options": {}})
        );
        assert!(rules(Some(&empty)).is_ok());
        let unknown = v1::Rules {
            preset: "whist".into(),
            options: None,
        };
        assert_eq!(rules(Some(&unknown)).expect_err("unknown").field, "rules");
    }
}

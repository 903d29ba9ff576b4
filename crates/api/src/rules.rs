//! Rulesets in the API's form (`v1::Rules`) and the engine's (`Ruleset`),
//! both ways: the one reading the game service, the matchmaker and Rust
//! clients share, so all of them agree on a ruleset, its rating key and why
//! one is refused.

use serde_json::{Value, json};
use skit_engine::Ruleset;
use skit_proto::v1;

use crate::ConvertError;

/// The engine's JSON form of `rules` (absent, or an empty preset: plain
/// `skitgubbe`). Struct numbers are doubles; whole ones go back to
/// integers, which the engine expects.
fn rules_json(rules: Option<&v1::Rules>) -> Value {
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

/// The engine's ruleset for an API `Rules`; a refusal names the option at
/// fault (`rules.preset`, `rules.phase2.action_limit`).
pub fn rules(rules: Option<&v1::Rules>) -> Result<Ruleset, ConvertError> {
    Ruleset::from_json(&rules_json(rules))
        .map_err(|e| ConvertError::new(format!("rules.{}", e.option), e.message))
}

/// The API message for a ruleset, every option resolved (as a game shows
/// the rules it is played by).
pub fn rules_message(rules: &Ruleset) -> v1::Rules {
    let resolved = rules.to_json();
    v1::Rules {
        preset: resolved["preset"].as_str().unwrap_or_default().to_owned(),
        options: serde_json::from_value(resolved["options"].clone()).ok(),
    }
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
        let refused = rules(Some(&unknown)).expect_err("unknown");
        assert_eq!(refused.field, "rules.preset");
        assert!(refused.message.contains("whist"), "{refused}");
    }

    #[test]
    fn a_refused_option_is_named_as_the_service_names_it() {
        let options =
            serde_json::from_value(json!({"phase2.action_limit": "many"})).expect("struct");
        let bad = v1::Rules {
            preset: "skitgubbe".into(),
            options: Some(options),
        };

        let refused = rules(Some(&bad)).expect_err("not a number");

        assert_eq!(refused.field, "rules.phase2.action_limit");
        let api = crate::ApiError::from(refused);
        assert_eq!(api.violations()[0].field, "rules.phase2.action_limit");
    }

    #[test]
    fn a_ruleset_goes_there_and_back() {
        for preset in skit_engine::Preset::ALL {
            let ruleset = Ruleset::preset(preset);

            let message = rules_message(&ruleset);

            assert_eq!(message.preset, preset.name());
            assert_eq!(rules(Some(&message)), Ok(ruleset));
        }
    }
}

//! The environment a service binary reads, as its `--help` lists it: each
//! setting of its typed configuration under the variable that sets it,
//! with the default. Read off the configuration's own defaults, so the
//! list cannot drift from what the binary reads; plus the telemetry
//! variables every binary shares ([`crate::telemetry`]).

use serde::Serialize;
use serde_json::Value;

/// The telemetry variables, read by every binary.
pub const TELEMETRY: &str = "  RUST_LOG                      log filter [default: info]
  LOG_FORMAT                    json, pretty, or compact [default: compact]
  OTEL_EXPORTER_OTLP_ENDPOINT   export traces over OTLP/gRPC to this address";

/// One line per field of `defaults`: the variable `variable(field)` names
/// and the field's default (`unset` for an absent one), by variable, then
/// [`TELEMETRY`].
pub fn help<C: Serialize>(defaults: &C, variable: impl Fn(&str) -> String) -> String {
    let fields = match serde_json::to_value(defaults) {
        Ok(Value::Object(fields)) => fields,
        // A configuration is a struct; anything else lists only telemetry.
        _ => serde_json::Map::new(),
    };
    let mut lines: Vec<(String, String)> = fields
        .iter()
        .map(|(field, default)| {
            let default = match default {
                Value::Null => "unset".to_owned(),
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            (variable(field), default)
        })
        .collect();
    lines.sort();
    let mut text = String::from("Environment:\n");
    for (variable, default) in lines {
        text.push_str(&format!("  {variable:<29} [default: {default}]\n"));
    }
    text.push_str(TELEMETRY);
    text
}

/// `field` as a variable with `prefix`: `addr` under `SKIT_` is `SKIT_ADDR`.
pub fn prefixed(prefix: &str, field: &str) -> String {
    format!("{prefix}{}", field.to_uppercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize)]
    struct Settings {
        addr: String,
        token: Option<String>,
        wait_ms: u64,
    }

    #[test]
    fn every_field_is_listed_with_its_variable_and_default() {
        let settings = Settings {
            addr: "127.0.0.1:1".into(),
            token: None,
            wait_ms: 50,
        };
        let text = help(&settings, |f| match f {
            "wait_ms" => "ALL_WAIT".into(),
            _ => prefixed("APP_", f),
        });
        let lines: Vec<&str> = text.lines().map(str::trim_end).collect();
        assert_eq!(lines[0], "Environment:");
        assert!(lines[1].starts_with("  ALL_WAIT "), "{text}");
        assert!(lines[1].ends_with("[default: 50]"), "{text}");
        assert!(lines[2].starts_with("  APP_ADDR "), "{text}");
        assert!(lines[2].ends_with("[default: 127.0.0.1:1]"), "{text}");
        assert!(lines[3].starts_with("  APP_TOKEN "), "{text}");
        assert!(lines[3].ends_with("[default: unset]"), "{text}");
        assert!(text.contains("RUST_LOG"), "{text}");
    }
}

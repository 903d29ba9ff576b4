//! A count in the configuration that may also be switched off: a number,
//! or `off` (read as `0`, which means the same: no limit).

use serde::{Deserialize, Deserializer};

#[derive(Deserialize)]
#[serde(untagged)]
enum CountOrOff {
    Count(u64),
    Text(String),
}

/// Reads a number or `off` (`0`); any other text is refused by name.
pub(crate) fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u64, D::Error> {
    match CountOrOff::deserialize(deserializer)? {
        CountOrOff::Count(n) => Ok(n),
        CountOrOff::Text(text) if text.trim().eq_ignore_ascii_case("off") => Ok(0),
        CountOrOff::Text(text) => text.trim().parse().map_err(|_| {
            serde::de::Error::custom(format!("expected a count or `off`, not {text:?}"))
        }),
    }
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;

    #[derive(Deserialize)]
    struct Knob {
        #[serde(deserialize_with = "super::deserialize")]
        cap: u64,
    }

    fn read(json: &str) -> Result<u64, serde_json::Error> {
        serde_json::from_str::<Knob>(json).map(|k| k.cap)
    }

    #[test]
    fn a_count_or_off_reads_numbers_and_off_and_refuses_the_rest() {
        assert_eq!(read(r#"{"cap": 2}"#).ok(), Some(2));
        assert_eq!(read(r#"{"cap": "25"}"#).ok(), Some(25));
        assert_eq!(read(r#"{"cap": "off"}"#).ok(), Some(0));
        assert_eq!(read(r#"{"cap": "OFF"}"#).ok(), Some(0));
        let refused = read(r#"{"cap": "lots"}"#).expect_err("not a count");
        assert!(refused.to_string().contains("`off`"), "{refused}");
    }
}

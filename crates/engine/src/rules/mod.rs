//! Rulesets: a preset plus option overrides, resolved and validated once.
//!
//! The JSON form is the conformance format's: a preset name (`"mas"`) or
//! `{"preset": "skitgubbe", "options": {"phase2.pickup": "bottom"}}`. A
//! resolved ruleset serializes as the object form with every option listed,
//! so it parses back to itself.

mod options;
mod parse;
mod preset;

pub use options::*;
pub use preset::Preset;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Why a ruleset or a player count was refused; names the option.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{option}: {message}")]
pub struct RulesError {
    /// The option (dotted name), or `preset` / `players` / `rules`.
    pub option: String,
    pub message: String,
}

impl RulesError {
    pub(crate) fn new(option: &str, message: impl Into<String>) -> RulesError {
        RulesError {
            option: option.to_owned(),
            message: message.into(),
        }
    }
}

/// A validated ruleset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ruleset {
    pub preset: Preset,
    pub options: Options,
}

impl Ruleset {
    /// A preset with no overrides.
    pub fn preset(preset: Preset) -> Ruleset {
        Ruleset {
            preset,
            options: preset.options(),
        }
    }

    /// The preset's usual table ([`Preset::usual_players`]) if these
    /// options allow it, else the nearest count they allow (the smaller of
    /// two as near).
    pub fn usual_players(&self) -> u8 {
        let usual = self.preset.usual_players();
        let (lo, hi) = self.preset.players();
        (lo..=hi)
            .filter(|&n| self.check_players(n).is_ok())
            .min_by_key(|&n| (n.abs_diff(usual), n))
            .unwrap_or(usual)
    }

    /// Refuses a player count outside the preset's range or the options' needs.
    pub fn check_players(&self, players: u8) -> Result<(), RulesError> {
        let (lo, hi) = self.preset.players();
        if players < lo || players > hi {
            return Err(RulesError::new(
                "players",
                format!(
                    "preset {} is for {lo} to {hi} players, not {players}",
                    self.preset.name()
                ),
            ));
        }
        if self.options.reserve > 0 && players != 2 {
            return Err(RulesError::new(
                "between.reserve",
                format!("a reserve pile needs exactly two players, not {players}"),
            ));
        }
        Ok(())
    }

    /// A stable key for ratings: the preset name, or the full JSON when any
    /// option differs from the preset's.
    pub fn key(&self) -> String {
        if self.options == self.preset.options() {
            self.preset.name().to_owned()
        } else {
            self.to_json().to_string()
        }
    }
}

impl Serialize for Ruleset {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.to_json().serialize(s)
    }
}

impl<'de> Deserialize<'de> for Ruleset {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let value = serde_json::Value::deserialize(d)?;
        Ruleset::from_json(&value).map_err(serde::de::Error::custom)
    }
}

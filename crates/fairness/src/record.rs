//! The game record as JSON: what the game service's GetHistory returns once
//! a game is over, and what `skit verify` reads.

use serde::{Deserialize, Serialize};
use skit_engine::{Action, Ruleset, Seat};

use crate::{Seed, Summary, VerifyError, dealer, verify};

/// A finished game's public record with its revealed seed.
///
/// ```json
/// {"rules": "skitgubbe", "players": 3, "dealer": 2, "dealerDrawn": true,
///  "shuffleCommitment": "66687a...", "seed": "00ff...",
///  "actions": [{"seat": 0, "play": ["7C"]}, {"shuffle": ["2C", "3D"]}]}
/// ```
///
/// Keys are camelCase; `shuffle_commitment`, `dealer_drawn` and `shuffle_seed`
/// / `shuffleSeed` are accepted too. Unknown keys (a game id, times) are
/// ignored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GameRecord {
    pub rules: Ruleset,
    pub players: u8,
    /// The dealer; absent when it was drawn from the seed and not recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dealer: Option<Seat>,
    /// Whether the dealer was drawn from the seed; then `dealer`, if given,
    /// must be the drawn one.
    #[serde(default, alias = "dealer_drawn")]
    pub dealer_drawn: bool,
    #[serde(alias = "shuffle_commitment")]
    pub shuffle_commitment: String,
    #[serde(alias = "shuffleSeed", alias = "shuffle_seed")]
    pub seed: Seed,
    /// Action objects, or (as GetHistory returns them) JSON strings of them.
    #[serde(deserialize_with = "actions")]
    pub actions: Vec<Action>,
}

fn actions<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<Action>, D::Error> {
    use serde::de::Error;
    let items = Vec::<serde_json::Value>::deserialize(d)?;
    items
        .into_iter()
        .map(|item| {
            let value = match item {
                serde_json::Value::String(text) => {
                    serde_json::from_str(&text).map_err(D::Error::custom)?
                }
                other => other,
            };
            Action::from_json(&value).map_err(D::Error::custom)
        })
        .collect()
}

impl GameRecord {
    /// [`verify`] on this record, first checking a recorded dealer that
    /// claims to be drawn.
    pub fn verify(&self) -> Result<Summary, VerifyError> {
        let given = match (self.dealer, self.dealer_drawn) {
            (Some(recorded), true) => {
                let drawn = dealer(&self.seed, self.players);
                if recorded != drawn && self.seed.matches(&self.shuffle_commitment) {
                    return Err(VerifyError::Dealer { recorded, drawn });
                }
                None
            }
            (Some(recorded), false) => Some(recorded),
            (None, _) => None,
        };
        verify(
            &self.seed,
            &self.shuffle_commitment,
            self.rules,
            self.players,
            given,
            &self.actions,
        )
    }
}

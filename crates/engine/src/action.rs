//! Actions: what a seat does (a [`Move`]) and chance outcomes, with the JSON
//! form of the conformance format (`{"seat": 0, "play": ["7C"]}`,
//! `{"shuffle": [...]}`).

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value, json};

use crate::{Card, CardSet, Seat};

/// What a seat does, without the seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// One card, a multi-card play of one rank, or a phase-two sequence.
    Play(CardSet),
    /// Turn up the top card of the stock and play it.
    Chance,
    /// Take cards from the phase-two table (or the led card, with a turned-up trump).
    Pickup,
    /// Add cards to a phase-one trick.
    Sluff(CardSet),
    /// Decline to sluff in a sluffing window.
    Pass,
    /// Take a decided trick (`phase1.sluff: unlimited`).
    Claim,
    /// Exchange the two of trumps for the turned-up card (`mas`).
    Rob,
    /// Lay aside three trumps and draw three (`mas`).
    Bank,
}

/// A seat's action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub seat: Seat,
    pub kind: MoveKind,
}

impl Move {
    pub const fn new(seat: Seat, kind: MoveKind) -> Move {
        Move { seat, kind }
    }
}

/// Anything the game takes next: a seat's move or a chance outcome (the order
/// in which awaited cards come out of a shuffle).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    Move(Move),
    Shuffle(Vec<Card>),
}

impl From<Move> for Action {
    fn from(m: Move) -> Action {
        Action::Move(m)
    }
}

/// An action text that is not of the documented form.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("malformed action: {0}")]
pub struct ParseActionError(pub String);

fn bad(msg: impl Into<String>) -> ParseActionError {
    ParseActionError(msg.into())
}

fn cards(value: &Value, field: &str) -> Result<Vec<Card>, ParseActionError> {
    let list = value
        .as_array()
        .ok_or_else(|| bad(format!("{field} must be a list of cards")))?;
    list.iter()
        .map(|v| {
            let text = v
                .as_str()
                .ok_or_else(|| bad(format!("{field}: {v} is not a card")))?;
            text.parse::<Card>()
                .map_err(|e| bad(format!("{field}: {e}")))
        })
        .collect()
}

fn card_set(value: &Value, field: &str) -> Result<CardSet, ParseActionError> {
    let mut set = CardSet::EMPTY;
    for card in cards(value, field)? {
        if set.contains(card) {
            return Err(bad(format!("{field} lists {card} twice")));
        }
        set.insert(card);
    }
    if set.is_empty() {
        return Err(bad(format!("{field} lists no card")));
    }
    Ok(set)
}

fn flag(value: &Value, field: &str) -> Result<(), ParseActionError> {
    match value {
        Value::Bool(true) => Ok(()),
        _ => Err(bad(format!("{field} must be true"))),
    }
}

impl MoveKind {
    /// Parses the kind from an object with exactly one kind key (and
    /// optionally `seat`, handled by the caller).
    pub fn from_fields(object: &Map<String, Value>) -> Result<MoveKind, ParseActionError> {
        let mut kinds = object.iter().filter(|(k, _)| *k != "seat");
        let (key, value) = kinds.next().ok_or_else(|| bad("no action kind"))?;
        if let Some((other, _)) = kinds.next() {
            return Err(bad(format!("several action kinds: {key} and {other}")));
        }
        Ok(match key.as_str() {
            "play" => MoveKind::Play(card_set(value, "play")?),
            "sluff" => MoveKind::Sluff(card_set(value, "sluff")?),
            "chance" => flag(value, "chance").map(|_| MoveKind::Chance)?,
            "pickup" => flag(value, "pickup").map(|_| MoveKind::Pickup)?,
            "pass" => flag(value, "pass").map(|_| MoveKind::Pass)?,
            "claim" => flag(value, "claim").map(|_| MoveKind::Claim)?,
            "rob" => flag(value, "rob").map(|_| MoveKind::Rob)?,
            "bank" => flag(value, "bank").map(|_| MoveKind::Bank)?,
            other => return Err(bad(format!("unknown action kind {other:?}"))),
        })
    }

    /// The JSON object form without a seat, cards ascending.
    pub fn to_json(&self) -> Value {
        let list =
            |set: &CardSet| -> Vec<String> { set.ascending().map(|c| c.to_string()).collect() };
        match self {
            MoveKind::Play(set) => json!({"play": list(set)}),
            MoveKind::Sluff(set) => json!({"sluff": list(set)}),
            MoveKind::Chance => json!({"chance": true}),
            MoveKind::Pickup => json!({"pickup": true}),
            MoveKind::Pass => json!({"pass": true}),
            MoveKind::Claim => json!({"claim": true}),
            MoveKind::Rob => json!({"rob": true}),
            MoveKind::Bank => json!({"bank": true}),
        }
    }

    /// The action's name as used in errors and metrics.
    pub const fn name(&self) -> &'static str {
        match self {
            MoveKind::Play(_) => "play",
            MoveKind::Sluff(_) => "sluff",
            MoveKind::Chance => "chance",
            MoveKind::Pickup => "pickup",
            MoveKind::Pass => "pass",
            MoveKind::Claim => "claim",
            MoveKind::Rob => "rob",
            MoveKind::Bank => "bank",
        }
    }
}

impl Action {
    pub fn from_json(value: &Value) -> Result<Action, ParseActionError> {
        let object = value
            .as_object()
            .ok_or_else(|| bad("an action is a JSON object"))?;
        if let Some(order) = object.get("shuffle") {
            if object.len() != 1 {
                return Err(bad("a shuffle has no seat and no other field"));
            }
            return Ok(Action::Shuffle(cards(order, "shuffle")?));
        }
        let seat = object.get("seat").ok_or_else(|| bad("no seat"))?;
        let seat = seat
            .as_u64()
            .and_then(|s| Seat::try_from(s).ok())
            .ok_or_else(|| bad(format!("seat must be a seat number, not {seat}")))?;
        Ok(Action::Move(Move::new(
            seat,
            MoveKind::from_fields(object)?,
        )))
    }

    pub fn to_json(&self) -> Value {
        match self {
            Action::Shuffle(order) => {
                json!({"shuffle": order.iter().map(|c| c.to_string()).collect::<Vec<_>>()})
            }
            Action::Move(m) => {
                let mut value = m.kind.to_json();
                if let Value::Object(object) = &mut value {
                    object.insert("seat".into(), json!(m.seat));
                }
                value
            }
        }
    }
}

impl Serialize for Action {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.to_json().serialize(s)
    }
}

impl<'de> Deserialize<'de> for Action {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Action::from_json(&Value::deserialize(d)?).map_err(serde::de::Error::custom)
    }
}

impl Serialize for MoveKind {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.to_json().serialize(s)
    }
}

impl<'de> Deserialize<'de> for MoveKind {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match Value::deserialize(d)? {
            Value::Object(object) if !object.contains_key("seat") => {
                MoveKind::from_fields(&object).map_err(serde::de::Error::custom)
            }
            other => Err(serde::de::Error::custom(format!(
                "not an action kind: {other}"
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_round_trip_and_strictness() {
        let value = json!({"seat": 1, "play": ["7d", "7C"]});
        let action = Action::from_json(&value).expect("parses");
        assert_eq!(action.to_json(), json!({"seat": 1, "play": ["7C", "7D"]}));
        for bad in [
            json!({"seat": 0, "chance": false}),
            json!({"seat": 0, "play": []}),
            json!({"seat": 0, "play": ["7C", "7c"]}),
            json!({"seat": 0, "play": "7C"}),
            json!({"seat": 0, "pickup": true, "pass": true}),
            json!({"seat": 0, "jump": true}),
            json!({"play": ["7C"]}),
            json!({"seat": -1, "pass": true}),
        ] {
            assert!(Action::from_json(&bad).is_err(), "{bad} should not parse");
        }
    }

    #[test]
    fn a_card_listed_twice_is_named() {
        let twice = json!({"seat": 0, "sluff": ["7C", "8D", "7c"]});
        assert_eq!(
            Action::from_json(&twice),
            Err(ParseActionError("sluff lists 7C twice".into()))
        );
    }
}

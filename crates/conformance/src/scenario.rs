//! Reading one scenario file (`tests/conformance/FORMAT.md`).

use serde_json::Value;
use skit_engine::{Card, CardSet, Game, Position, Ruleset, Seat, SetupError, Suit};

/// A parsed scenario, before its set-up is validated by the engine.
pub struct Scenario {
    pub rules: Value,
    pub players: Value,
    pub dealer: Value,
    pub start: Start,
    pub refused: bool,
    pub actions: Vec<Value>,
    /// (after, assertion object), `expect` last with `after` = actions.len().
    pub checks: Vec<(usize, serde_json::Map<String, Value>)>,
}

pub enum Start {
    Deck(Value),
    Position(Value),
}

/// Why a file is not a scenario at all.
pub fn parse(text: &str) -> Result<Scenario, String> {
    let value: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    let object = value.as_object().ok_or("not a JSON object")?;
    let rules = object.get("rules").cloned().ok_or("no rules")?;
    let players = object.get("players").cloned().ok_or("no players")?;
    let start = match (object.get("deck"), object.get("start")) {
        (Some(deck), None) => Start::Deck(deck.clone()),
        (None, Some(start)) => Start::Position(start.clone()),
        _ => return Err("needs exactly one of deck and start".into()),
    };
    let actions = match object.get("actions") {
        None => Vec::new(),
        Some(Value::Array(list)) => list.clone(),
        Some(_) => return Err("actions must be a list".into()),
    };
    let mut checks = Vec::new();
    if let Some(list) = object.get("checks") {
        for check in list.as_array().ok_or("checks must be a list")? {
            let check = check.as_object().ok_or("a check must be an object")?;
            let after = check
                .get("after")
                .and_then(Value::as_u64)
                .ok_or("a check needs after")?;
            checks.push((after as usize, check.clone()));
        }
    }
    if let Some(expect) = object.get("expect") {
        checks.push((
            actions.len(),
            expect
                .as_object()
                .ok_or("expect must be an object")?
                .clone(),
        ));
    }
    Ok(Scenario {
        rules,
        players,
        dealer: object.get("dealer").cloned().unwrap_or(Value::from(0)),
        start,
        refused: object
            .get("refused")
            .and_then(Value::as_bool)
            .unwrap_or(false),
        actions,
        checks,
    })
}

fn cards(value: &Value) -> Result<Vec<Card>, String> {
    let list = value
        .as_array()
        .ok_or_else(|| format!("{value} is not a list of cards"))?;
    list.iter()
        .map(|c| {
            c.as_str()
                .ok_or_else(|| format!("{c} is not a card"))
                .and_then(|s| s.parse().map_err(|e| format!("{e}")))
        })
        .collect()
}

/// Builds the game; an error is the set-up being refused.
pub fn set_up(s: &Scenario) -> Result<Game, String> {
    let rules = Ruleset::from_json(&s.rules).map_err(|e| e.to_string())?;
    let seat = |v: &Value, what: &str| -> Result<Seat, String> {
        v.as_u64()
            .and_then(|n| Seat::try_from(n).ok())
            .ok_or_else(|| format!("{what}: {v} is not a seat number"))
    };
    let players = seat(&s.players, "players")?;
    let dealer = seat(&s.dealer, "dealer")?;
    let setup = |e: SetupError| e.to_string();
    match &s.start {
        Start::Deck(deck) => Game::deal(rules, players, dealer, &cards(deck)?).map_err(setup),
        Start::Position(start) => {
            let object = start.as_object().ok_or("start must be an object")?;
            if object.get("phase").and_then(Value::as_str) != Some("two") {
                return Err("start.phase must be \"two\"".into());
            }
            let trump = object
                .get("trump")
                .and_then(Value::as_str)
                .and_then(|t| {
                    let mut chars = t.chars();
                    let suit = chars.next().and_then(Suit::from_letter);
                    if chars.next().is_some() { None } else { suit }
                })
                .ok_or("start.trump must be a suit letter")?;
            let mut hands = Vec::new();
            for hand in object
                .get("hands")
                .and_then(Value::as_array)
                .ok_or("start.hands must be a list")?
            {
                let list = cards(hand)?;
                let set: CardSet = list.iter().copied().collect();
                if set.len() as usize != list.len() {
                    return Err("a card appears twice in a hand".into());
                }
                hands.push(set);
            }
            let leader = seat(
                object.get("leader").ok_or("start.leader missing")?,
                "start.leader",
            )?;
            Game::from_position(
                rules,
                players,
                dealer,
                &Position {
                    trump,
                    hands,
                    leader,
                },
            )
            .map_err(setup)
        }
    }
}

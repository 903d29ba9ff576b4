//! Comparing a game against a scenario's assertion object (FORMAT.md).

use serde_json::{Value, json};
use skit_engine::{CardSet, Game, MoveKind, Phase};

fn phase_name(p: Phase) -> &'static str {
    match p {
        Phase::One => "one",
        Phase::Two => "two",
        Phase::Over => "over",
    }
}

fn card_set(v: &Value) -> Option<CardSet> {
    let list = v.as_array()?;
    let mut set = CardSet::EMPTY;
    for c in list {
        set.insert(c.as_str()?.parse().ok()?);
    }
    Some(set)
}

fn cards_json(set: CardSet) -> Value {
    json!(set.ascending().map(|c| c.to_string()).collect::<Vec<_>>())
}

/// The game's value for one assertion field, in the scenario's form.
fn actual(game: &Game, field: &str) -> Option<Value> {
    let s = game.state();
    let n = s.players();
    Some(match field {
        "phase" => json!(phase_name(s.phase())),
        "to_act" => json!(game.to_act().iter().collect::<Vec<_>>()),
        "awaits_shuffle" => json!(s.awaiting() != skit_engine::Awaiting::Nothing),
        "hands" => json!((0..n).map(|p| cards_json(s.hand(p))).collect::<Vec<_>>()),
        "hand_sizes" => json!((0..n).map(|p| s.hand(p).len()).collect::<Vec<_>>()),
        "pile_sizes" => json!((0..n).map(|p| s.pile_size(p)).collect::<Vec<_>>()),
        "stock_size" => json!(s.stock_size()),
        "trump" => json!(s.trump().map(|t| t.to_string())),
        "trump_holder" => json!(s.trump_holder()),
        "table" if s.phase() == Phase::One => table_in_order(s),
        "table" => json!(
            s.table_groups()
                .map(|(_, lay)| cards_json(lay))
                .collect::<Vec<_>>()
        ),
        "trick_size" => json!(s.trick_size()),
        "leader" => json!(s.leader()),
        "out" => json!(s.out().collect::<Vec<_>>()),
        "loser" => json!(s.loser()),
        _ => return None,
    })
}

fn same(game: &Game, field: &str, expected: &Value, actual: &Value) -> bool {
    let upper = |v: &Value| -> Value {
        match v {
            Value::String(s) => Value::String(s.to_uppercase()),
            Value::Array(items) => Value::Array(
                items
                    .iter()
                    .map(|i| {
                        i.as_str()
                            .map(|s| json!(s.to_uppercase()))
                            .unwrap_or(i.clone())
                    })
                    .collect(),
            ),
            other => other.clone(),
        }
    };
    match field {
        // Hands, and phase-two lays, compare as lists of card sets.
        "hands" => same_sets(expected, actual),
        // Once over, FORMAT names no form: a game that ended in phase one
        // (the action limit with a turned-up trump) may be asserted either
        // way, and a list of cards compares with the cards in table order.
        "table" if game.state().phase() == Phase::Over && is_card_list(expected) => {
            upper(expected) == table_in_order(game.state())
        }
        "table" if game.state().phase() != Phase::One => same_sets(expected, actual),
        "table" | "trump" => upper(expected) == upper(actual),
        _ => expected == actual,
    }
}

/// The table as a phase-one list: every card in the order played.
fn table_in_order(s: &skit_engine::State) -> Value {
    json!(
        s.table_cards()
            .map(|(_, c, _)| c.to_string())
            .collect::<Vec<_>>()
    )
}

/// A list whose items are all strings (a phase-one table), not lays.
fn is_card_list(v: &Value) -> bool {
    v.as_array()
        .is_some_and(|items| !items.is_empty() && items.iter().all(Value::is_string))
}

/// Two lists of card lists, equal item by item as sets.
fn same_sets(expected: &Value, actual: &Value) -> bool {
    let (Some(e), Some(a)) = (expected.as_array(), actual.as_array()) else {
        return false;
    };
    e.len() == a.len()
        && e.iter()
            .zip(a)
            .all(|(e, a)| card_set(e).is_some_and(|e| Some(e) == card_set(a)))
}

/// Mismatches between the game and the assertion, as "field: expected X, found Y".
pub fn compare(game: &Game, assertion: &serde_json::Map<String, Value>) -> Vec<String> {
    let mut problems = Vec::new();
    for (field, expected) in assertion {
        if field == "after" {
            continue;
        }
        if field == "legal" {
            if let Err(problem) = compare_legal(game, expected) {
                problems.push(format!("legal: {problem}"));
            }
            continue;
        }
        let Some(found) = actual(game, field) else {
            continue;
        };
        if !same(game, field, expected, &found) {
            problems.push(format!("{field}: expected {expected}, found {found}"));
        }
    }
    problems
}

fn compare_legal(game: &Game, expected: &Value) -> Result<(), String> {
    let to_act: Vec<_> = game.to_act().iter().collect();
    let list = expected.as_array().ok_or("expected a list")?;
    if to_act.is_empty() && list.is_empty() {
        // Nobody may act: the empty set is right. FORMAT says `legal` is
        // meaningful only when one seat may act, but the public scenarios
        // assert `legal: []` once the game is over (random-skitgubbe-11).
        return Ok(());
    }
    let [seat] = to_act[..] else {
        return Err(format!("asserted while to_act is {to_act:?}"));
    };
    let mut want = Vec::new();
    for item in list {
        let object = item
            .as_object()
            .ok_or_else(|| format!("{item} is not an action"))?;
        want.push(MoveKind::from_fields(object).map_err(|e| format!("{item}: {e}"))?);
    }
    let have: Vec<MoveKind> = game.legal_moves_for(seat).iter().map(|m| m.kind).collect();
    let missing: Vec<_> = want
        .iter()
        .filter(|k| !have.contains(k))
        .map(|k| k.to_json())
        .collect();
    let extra: Vec<_> = have
        .iter()
        .filter(|k| !want.contains(k))
        .map(|k| k.to_json())
        .collect();
    if missing.is_empty() && extra.is_empty() && want.len() == have.len() {
        Ok(())
    } else {
        Err(format!(
            "missing {}, unexpected {}",
            json!(missing),
            json!(extra)
        ))
    }
}

//! Random malformed actions (JSON values and bytes) never panic and never
//! change the game; the ones that parse round-trip, and are accepted only
//! when legal.

use rand::Rng;
use rand::seq::{IndexedRandom, SliceRandom};
use rand_chacha::ChaCha8Rng;
use serde_json::{Map, Value, json};
use skit_engine::{Action, Card, CardSet, Move, MoveKind, State};

use crate::properties::conservation::conservation;
use crate::properties::legality::random_cards;
use crate::properties::play::play;
use crate::properties::{random_card, setups};

/// A random JSON value, often almost an action.
fn random_json(rng: &mut ChaCha8Rng, state: &State, depth: u32) -> Value {
    const KEYS: [&str; 14] = [
        "seat", "play", "sluff", "chance", "pickup", "pass", "claim", "rob", "bank", "shuffle",
        "Play", "", "cards", "seat ",
    ];
    const TEXTS: [&str; 12] = [
        "",
        "10H",
        "1S",
        "TSX",
        "AS ",
        "ZZ",
        "é",
        "\u{1F0A1}",
        "x",
        "t",
        "Ts",
        "\0",
    ];
    let top = if depth > 2 { 6 } else { 10 };
    match rng.random_range(0..top) {
        0 => Value::Null,
        1 => json!(rng.random_bool(0.7)),
        2 => match rng.random_range(0..8) {
            0 => json!(-1),
            1 => json!(u64::MAX),
            2 => json!(1.5),
            3 => json!(256),
            4 => json!(rng.random::<i64>()),
            _ => json!(rng.random_range(0..=9)),
        },
        3 => {
            let c = random_card(rng).to_string();
            json!(if rng.random_bool(0.3) {
                c.to_lowercase()
            } else {
                c
            })
        }
        4 => json!(TEXTS.choose(rng).expect("texts")),
        5 => {
            // A list of cards, perhaps with a duplicate or a non-card.
            let mut list: Vec<Value> = random_cards(rng, state)
                .iter()
                .map(|c| json!(c.to_string()))
                .collect();
            list.shuffle(rng);
            match rng.random_range(0..6) {
                0 => list.push(json!("7C")),
                1 => list.push(random_json(rng, state, depth + 1)),
                _ => {}
            }
            Value::Array(list)
        }
        6 => {
            let len = rng.random_range(0..4);
            Value::Array(
                (0..len)
                    .map(|_| random_json(rng, state, depth + 1))
                    .collect(),
            )
        }
        _ => {
            let mut object = Map::new();
            if rng.random_bool(0.85) {
                let seat = if rng.random_bool(0.8) {
                    json!(rng.random_range(0..state.players()))
                } else {
                    random_json(rng, state, depth + 1)
                };
                object.insert("seat".into(), seat);
            }
            for _ in 0..rng.random_range(0..=2) {
                let key = *KEYS.choose(rng).expect("keys");
                let value = match key {
                    "play" | "sluff" | "shuffle" if rng.random_bool(0.7) => {
                        let cards = if key == "shuffle" && rng.random_bool(0.5) {
                            state.awaited_cards()
                        } else {
                            random_cards(rng, state)
                        };
                        let mut list: Vec<Card> = cards.iter().collect();
                        list.shuffle(rng);
                        json!(list.iter().map(|c| c.to_string()).collect::<Vec<_>>())
                    }
                    _ if rng.random_bool(0.5) => json!(true),
                    _ => random_json(rng, state, depth + 1),
                };
                object.insert(key.into(), value);
            }
            Value::Object(object)
        }
    }
}

#[test]
fn malformed_actions_never_panic_and_never_change_the_game() {
    let mut parsed = 0usize;
    for (setup, mut rng) in setups(7, 1) {
        let (mut game, _) = play(&setup, &mut rng, &mut |step, rng| {
            let state = step.state();
            let rules = step.rules();
            let legal = step.game.legal_moves();
            for _ in 0..6 {
                let value = random_json(rng, &state, 0);
                // The text form too, with a byte changed now and then.
                let mut text = value.to_string().into_bytes();
                if !text.is_empty() && rng.random_bool(0.3) {
                    let at = rng.random_range(0..text.len());
                    text[at] = rng.random();
                }
                let _ = serde_json::from_slice::<Action>(&text);
                let _ = serde_json::from_slice::<MoveKind>(&text);
                let Ok(action) = Action::from_json(&value) else {
                    continue;
                };
                parsed += 1;
                assert_eq!(
                    Action::from_json(&action.to_json()).as_ref(),
                    Ok(&action),
                    "{}\n{value} parses but does not round-trip",
                    step.ctx()
                );
                let mut copy = state;
                match copy.apply(&rules, &action) {
                    Ok(()) => {
                        let expected = match &action {
                            Action::Move(mv) => legal.contains(mv),
                            Action::Shuffle(order) => {
                                order.iter().copied().collect::<CardSet>() == state.awaited_cards()
                                    && order.len() == state.awaited_cards().len() as usize
                            }
                        };
                        assert!(expected, "{}\n{value} was accepted", step.ctx());
                        if let Err(e) = conservation(&copy) {
                            panic!("{}\nafter {value}: {e}", step.ctx());
                        }
                    }
                    Err(_) => assert!(
                        copy == state,
                        "{}\n{value} was refused but changed the state",
                        step.ctx()
                    ),
                }
            }
        });
        // A finished game refuses everything, without change.
        let state = *game.state();
        let history = game.history().len();
        for action in [
            Action::Move(Move::new(0, MoveKind::Pickup)),
            Action::Move(Move::new(0, MoveKind::Play(CardSet::FULL))),
            Action::Shuffle(Vec::new()),
        ] {
            assert!(
                game.apply(&action).is_err(),
                "{setup}: accepted after the end"
            );
            assert!(*game.state() == state && game.history().len() == history);
        }
    }
    assert!(parsed > 100, "only {parsed} random actions parsed");
}

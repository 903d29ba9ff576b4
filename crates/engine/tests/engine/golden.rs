//! Golden replays, like OpenSpiel's playthroughs: one whole game per preset
//! in `tests/golden/PRESET.ndjson`, with every seat's view (and a
//! spectator's) after the deal and after every action. The test replays each
//! file's actions and compares every view and every new public record, so any
//! change to what a seat sees shows up as a diff of these files.
//!
//! Line 1 holds the deal (`rules`, `players`, `dealer`, `deck`); each next
//! line one step: `action` (none for the deal), the public `records` it
//! added, and `views`: seat 0 to n-1, then the spectator, each without its
//! `rules` (on line 1) and `history` (the records). Regenerate deliberately,
//! after a change meant to alter views, with
//! `SKIT_GOLDEN=regenerate cargo nextest run -p skit-engine golden` and
//! review the diff.

use std::fs;
use std::path::PathBuf;

use rand::seq::{IndexedRandom, SliceRandom};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};
use skit_engine::{Action, Card, CardSet, Game, MoveKind, Preset, Ruleset, Seat};

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/golden")
}

/// One step's line: the action, the records it added, every view.
fn step_line(game: &Game, action: Option<&Action>, records_before: usize) -> Value {
    let n = game.state().players();
    let views: Vec<Value> = (0..n)
        .map(Some)
        .chain([None])
        .map(|viewer| {
            let mut view = serde_json::to_value(game.view_since(viewer, usize::MAX))
                .expect("a view serializes");
            if let Value::Object(object) = &mut view {
                object.remove("rules");
                object.remove("history");
            }
            view
        })
        .collect();
    json!({
        "action": action.map(Action::to_json),
        "records": game.history()[records_before..],
        "views": views,
    })
}

/// A deterministic game: a seeded deal and seeded choices that mostly shed
/// low cards (so games end without many pick-ups).
fn generate(preset: Preset, players: u8) -> Vec<Value> {
    let rules = Ruleset::preset(preset);
    let mut rng = ChaCha8Rng::seed_from_u64(0x601D + u64::from(players) * 31 + preset as u64);
    let mut deck: Vec<Card> = Card::all().collect();
    deck.shuffle(&mut rng);
    let dealer = rng.random_range(0..players);
    let mut game = Game::deal(rules, players, dealer, &deck).expect("a full deck deals");
    let deck_json: Vec<String> = deck.iter().map(Card::to_string).collect();
    let mut lines = vec![
        json!({"rules": rules.to_json(), "players": players, "dealer": dealer, "deck": deck_json}),
        step_line(&game, None, 0),
    ];
    loop {
        let awaited = game.state().awaited_cards();
        let action = if awaited.is_empty() {
            let legal = game.legal_moves();
            let plays: Vec<_> = legal
                .iter()
                .filter(|m| m.kind != MoveKind::Pickup)
                .copied()
                .collect();
            let low = |m: &&skit_engine::Move| match m.kind {
                MoveKind::Play(cards) => cards.lowest().map_or(99, |c| c.rank().value()),
                _ => 50,
            };
            let choice = if plays.is_empty() || rng.random_bool(0.1) {
                legal.choose(&mut rng).copied()
            } else if rng.random_bool(0.5) {
                plays.iter().min_by_key(low).copied()
            } else {
                plays.choose(&mut rng).copied()
            };
            match choice {
                Some(mv) => Action::Move(mv),
                None => break,
            }
        } else {
            let mut order: Vec<Card> = awaited.iter().collect();
            order.shuffle(&mut rng);
            Action::Shuffle(order)
        };
        let before = game.history().len();
        game.apply(&action).expect("a listed action is accepted");
        lines.push(step_line(&game, Some(&action), before));
    }
    lines
}

fn players_for(preset: Preset) -> u8 {
    let (lo, hi) = preset.players();
    lo.max(3).min(hi)
}

#[test]
fn golden_replays_show_every_seat_the_same_views() {
    let regenerate = std::env::var("SKIT_GOLDEN").is_ok_and(|v| v == "regenerate");
    for preset in Preset::ALL {
        let path = dir().join(format!("{}.ndjson", preset.name()));
        if regenerate {
            let lines = generate(preset, players_for(preset));
            let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
            fs::write(&path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            continue;
        }
        let text = fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!("{}: {e} (SKIT_GOLDEN=regenerate writes it)", path.display())
        });
        let lines: Vec<Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).expect("each line is JSON"))
            .collect();
        let head = &lines[0];
        let rules = Ruleset::from_json(&head["rules"]).expect("the file's ruleset parses");
        let players = head["players"].as_u64().expect("players") as u8;
        let dealer = head["dealer"].as_u64().expect("dealer") as Seat;
        let deck: Vec<Card> = serde_json::from_value(head["deck"].clone()).expect("a deck");
        assert_eq!(deck.iter().copied().collect::<CardSet>(), CardSet::FULL);
        let mut game = Game::deal(rules, players, dealer, &deck).expect("the file's deal deals");
        assert!(
            lines.len() > 20,
            "{}: only {} steps",
            path.display(),
            lines.len()
        );
        for (i, expected) in lines.iter().enumerate().skip(1) {
            let before = game.history().len();
            let action = match &expected["action"] {
                Value::Null => None,
                value => {
                    let action = Action::from_json(value).expect("the file's action parses");
                    game.apply(&action).unwrap_or_else(|e| {
                        panic!("{} line {}: {value} refused: {e}", path.display(), i + 1)
                    });
                    Some(action)
                }
            };
            let actual = step_line(&game, action.as_ref(), before);
            assert!(
                &actual == expected,
                "{} line {}: the replay differs from the recorded views\nrecorded {expected}\nreplayed {actual}\n\
                 (if the change is meant, regenerate: SKIT_GOLDEN=regenerate cargo nextest run -p skit-engine golden)",
                path.display(),
                i + 1
            );
        }
        assert!(
            game.state().phase() == skit_engine::Phase::Over,
            "{}: the game does not end",
            path.display()
        );
    }
}

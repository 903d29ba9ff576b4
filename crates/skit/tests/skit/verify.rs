//! `skit verify FILE` on game records written as the game service returns
//! them: an honest game verifies, tampered ones are named and exit 1.

use std::path::PathBuf;
use std::process::Command;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};
use skit_engine::{Action, Game, Phase, Preset, Ruleset};
use skit_fairness::{Seed, deal, outcome};

/// A whole `allplay` game (it shuffles the low cards) between random players,
/// every chance outcome from the seed, as the record's JSON.
fn honest_record(seed: &Seed, moves: u64) -> Value {
    let rules = Ruleset::preset(Preset::Allplay);
    let (deck, dealer) = deal(seed, 3);
    let mut game = Game::deal(rules, 3, dealer, &deck).expect("deals");
    let mut rng = ChaCha8Rng::seed_from_u64(moves);
    let (mut actions, mut k) = (Vec::new(), 0);
    while game.state().phase() != Phase::Over {
        let awaited = game.state().awaited_cards();
        let action = if awaited.is_empty() {
            let legal = game.legal_moves();
            Action::Move(legal[rng.random_range(0..legal.len())])
        } else {
            k += 1;
            Action::Shuffle(outcome(seed, k, awaited))
        };
        game.apply(&action).expect("a legal action");
        actions.push(action.to_json());
    }
    json!({
        "gameId": "g-1",
        "rules": "allplay",
        "players": 3,
        "dealer": dealer,
        "dealerDrawn": true,
        "shuffleCommitment": seed.commitment(),
        "seed": seed.to_hex(),
        "actions": actions,
    })
}

/// Runs `skit verify` on the record; returns the exit code and stdout.
fn verify(name: &str, record: &Value) -> (Option<i32>, String) {
    let path: PathBuf =
        std::env::temp_dir().join(format!("skit-verify-{}-{name}.json", std::process::id()));
    std::fs::write(&path, record.to_string()).expect("write the record");
    let output = Command::new(env!("CARGO_BIN_EXE_skit"))
        .arg("verify")
        .arg(&path)
        .output()
        .expect("skit runs");
    std::fs::remove_file(&path).ok();
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
    )
}

/// The first honest record (over move seeds) with a shuffle of two or more
/// cards, so that swapping two of them is a different order.
fn record_with_a_shuffle() -> Value {
    (0..100)
        .map(|moves| honest_record(&seed(), moves))
        .find(|record| {
            record["actions"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|a| a["shuffle"].as_array().is_some_and(|o| o.len() >= 2))
        })
        .expect("some game shuffles the low cards")
}

fn seed() -> Seed {
    Seed::from_hex("9f3c6a1e2d4b8f70c5e1a2b3d4f60718293a4b5c6d7e8f90a1b2c3d4e5f60718")
        .expect("a seed")
}

#[test]
fn an_honest_game_verifies() {
    let record = record_with_a_shuffle();
    let (code, out) = verify("honest", &record);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.starts_with("verified: "), "{out}");
    assert!(
        out.contains("is the skitgubbe") || out.contains("drawn"),
        "{out}"
    );
}

#[test]
fn an_unfinished_game_says_the_seed_comes_at_the_end() {
    let mut record = record_with_a_shuffle();
    let object = record.as_object_mut().expect("an object");
    object.remove("seed");
    object.insert("complete".into(), json!(false));
    let path: PathBuf = std::env::temp_dir().join(format!(
        "skit-verify-{}-unfinished.json",
        std::process::id()
    ));
    std::fs::write(&path, record.to_string()).expect("write the record");

    let output = Command::new(env!("CARGO_BIN_EXE_skit"))
        .arg("verify")
        .arg(&path)
        .output()
        .expect("skit runs");
    std::fs::remove_file(&path).ok();

    let err = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{err}");
    assert!(
        err.contains("the seed is revealed when the game ends"),
        "{err}"
    );
    assert!(!err.contains("missing field"), "{err}");
}

#[test]
fn snake_case_keys_are_read() {
    let mut record = record_with_a_shuffle();
    let object = record.as_object_mut().expect("an object");
    let commitment = object.remove("shuffleCommitment").expect("present");
    object.insert("shuffle_commitment".into(), commitment);
    let (code, out) = verify("snake", &record);
    assert_eq!(code, Some(0), "{out}");
}

#[test]
fn a_tampered_shuffle_is_named_and_fails() {
    let mut record = record_with_a_shuffle();
    let actions = record["actions"].as_array_mut().expect("a list");
    let (index, order) = actions
        .iter_mut()
        .enumerate()
        .find_map(|(i, a)| {
            let order = a.get_mut("shuffle")?.as_array_mut()?;
            (order.len() >= 2).then_some((i, order))
        })
        .expect("chosen for it");
    order.swap(0, 1);
    let (code, out) = verify("tampered", &record);
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.starts_with(&format!("mismatch: actions[{index}] (chance event ")),
        "{out}"
    );
}

#[test]
fn a_seed_that_does_not_match_its_commitment_fails() {
    let mut record = record_with_a_shuffle();
    record["seed"] = json!("00".repeat(32));
    let (code, out) = verify("seed", &record);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("commitment"), "{out}");
}

#[test]
fn an_unreadable_record_exits_2() {
    let (code, _) = verify("broken", &json!({"players": 3}));
    assert_eq!(code, Some(2));
}

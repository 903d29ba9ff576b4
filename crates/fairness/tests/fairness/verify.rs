//! `verify` accepts honest games drawn from their seed and names the first
//! thing wrong in a tampered one.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use skit_engine::{Action, Game, Phase, Preset, Ruleset};
use skit_fairness::{GameRecord, Seed, VerifyError, deal, outcome, verify};

/// A whole game between random players, every chance outcome from `seed`.
fn honest_game(preset: Preset, players: u8, seed: &Seed, moves: u64) -> GameRecord {
    let rules = Ruleset::preset(preset);
    let (deck, dealer) = deal(seed, players);
    let mut game = Game::deal(rules, players, dealer, &deck).expect("deals");
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
        actions.push(action);
    }
    GameRecord {
        rules,
        players,
        dealer: Some(dealer),
        dealer_drawn: true,
        shuffle_commitment: seed.commitment(),
        seed: seed.clone(),
        actions,
    }
}

fn seed(i: u8) -> Seed {
    Seed::from_bytes([i; 32])
}

/// An honest game with a shuffle of at least two cards, and that shuffle's
/// index. `allplay` sets the low cards aside between the phases.
fn game_with_a_shuffle() -> (GameRecord, usize) {
    (0..100)
        .find_map(|i| {
            let record = honest_game(Preset::Allplay, 3, &seed(i), u64::from(i));
            let at = record
                .actions
                .iter()
                .position(|a| matches!(a, Action::Shuffle(order) if order.len() >= 2))?;
            Some((record, at))
        })
        .expect("some game shuffles the low cards")
}

#[test]
fn honest_games_of_every_preset_verify() {
    let mut shuffles = 0;
    for (i, preset) in Preset::ALL.into_iter().enumerate() {
        let players = preset.players().0.max(3).min(preset.players().1);
        for j in 0..4u8 {
            let s = seed(i as u8 * 4 + j);
            let record = honest_game(preset, players, &s, u64::from(j));
            let summary = record
                .verify()
                .unwrap_or_else(|e| panic!("{}: {e}", preset.name()));
            assert!(summary.over);
            assert!(summary.dealer_drawn);
            assert_eq!(summary.actions, record.actions.len());
            assert_eq!(summary.loser.is_some(), !summary.drawn);
            shuffles += summary.shuffles;
        }
    }
    assert!(shuffles > 0, "no game had a chance event after the deal");
}

#[test]
fn a_chosen_dealer_is_used_as_given() {
    let s = seed(200);
    let rules = Ruleset::preset(Preset::Skitgubbe);
    let summary = verify(&s, &s.commitment(), rules, 4, Some(3), &[]).expect("verifies");
    assert_eq!(
        (summary.dealer, summary.dealer_drawn, summary.over),
        (3, false, false)
    );
}

#[test]
fn a_tampered_seed_is_refused() {
    let (mut record, _) = game_with_a_shuffle();
    let mut bytes = *record.seed.as_bytes();
    bytes[0] ^= 1;
    record.seed = Seed::from_bytes(bytes);
    let err = record.verify().expect_err("refused");
    assert!(matches!(err, VerifyError::Commitment { .. }), "{err}");
}

#[test]
fn a_tampered_commitment_is_refused() {
    let (mut record, _) = game_with_a_shuffle();
    record.shuffle_commitment = seed(250).commitment();
    let err = record.verify().expect_err("refused");
    assert!(
        err.to_string().contains(&record.shuffle_commitment),
        "{err}"
    );
}

#[test]
fn a_tampered_shuffle_is_named() {
    let (mut record, at) = game_with_a_shuffle();
    let Action::Shuffle(order) = &mut record.actions[at] else {
        unreachable!("found above");
    };
    let honest = order.clone();
    order.swap(0, 1);
    let tampered = order.clone();
    let err = record.verify().expect_err("refused");
    assert_eq!(
        err,
        VerifyError::Shuffle {
            index: at,
            event: 1,
            expected: honest,
            found: tampered,
        }
    );
    assert!(
        err.to_string()
            .starts_with(&format!("actions[{at}] (chance event 1)"))
    );
}

#[test]
fn a_missing_shuffle_is_refused_by_the_rules() {
    let (mut record, at) = game_with_a_shuffle();
    record.actions.remove(at);
    let err = record.verify().expect_err("refused");
    assert!(
        matches!(err, VerifyError::Refused { index, .. } if index == at),
        "{err}"
    );
}

#[test]
fn a_recorded_dealer_that_was_not_drawn_is_refused() {
    let (mut record, _) = game_with_a_shuffle();
    let drawn = record.dealer.expect("recorded");
    record.dealer = Some((drawn + 1) % record.players);
    let err = record.verify().expect_err("refused");
    assert!(matches!(err, VerifyError::Dealer { .. }), "{err}");
}

#[test]
fn the_record_reads_camel_and_snake_case() {
    let (record, _) = game_with_a_shuffle();
    let camel = serde_json::to_value(&record).expect("serializes");
    assert!(camel.get("shuffleCommitment").is_some(), "{camel}");
    assert_eq!(
        serde_json::from_value::<GameRecord>(camel.clone()).ok(),
        Some(record.clone())
    );
    let mut snake = camel.as_object().expect("an object").clone();
    let commitment = snake.remove("shuffleCommitment").expect("present");
    let seed = snake.remove("seed").expect("present");
    snake.insert("shuffle_commitment".into(), commitment);
    snake.insert("shuffle_seed".into(), seed);
    let parsed: GameRecord = serde_json::from_value(snake.into()).expect("snake case parses");
    assert_eq!(parsed, record);
}

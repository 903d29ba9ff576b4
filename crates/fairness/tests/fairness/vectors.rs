//! The pinned test vectors of `skitgubbe-shuffle-v1`, the same as in
//! `docs/fairness.md`. They were cross-checked against an independent Python
//! implementation (in that doc). If one of these fails, the algorithm
//! changed: that is a new version with a new name, never an edit here.

use skit_engine::{Card, CardSet};
use skit_fairness::{ALGORITHM, Seed, deal, dealer, deck, outcome};

struct Vector {
    seed: &'static str,
    commitment: &'static str,
    first_ten: &'static str,
    dealer_of_3: u8,
    /// Event 1 over the awaited cards 2C 2D 2H 2S 3C 3D.
    event_1: &'static str,
}

const VECTORS: [Vector; 3] = [
    Vector {
        seed: "0000000000000000000000000000000000000000000000000000000000000000",
        commitment: "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925",
        first_ten: "AC 2S JH 9C JD KD 4S 7C 3S 8H",
        dealer_of_3: 0,
        event_1: "2D 3D 2H 3C 2C 2S",
    },
    Vector {
        seed: "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
        commitment: "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd",
        first_ten: "QH QS 7S KS AS 7H QD 8D 8H TH",
        dealer_of_3: 2,
        event_1: "3C 2C 2S 2H 2D 3D",
    },
    Vector {
        seed: "9f3c6a1e2d4b8f70c5e1a2b3d4f60718293a4b5c6d7e8f90a1b2c3d4e5f60718",
        commitment: "c4cbabeec29134eff198939523a7354118db5e72a3a18894b2b454ec232d5d6e",
        first_ten: "KH TC 4D 4H JC 2S 9C 8H 3C KD",
        dealer_of_3: 1,
        event_1: "2D 3D 2H 2S 2C 3C",
    },
];

fn cards(text: &str) -> Vec<Card> {
    text.split_whitespace()
        .map(|c| c.parse().expect("a card"))
        .collect()
}

fn seed(hex: &str) -> Seed {
    Seed::from_hex(hex).expect("a seed")
}

#[test]
fn the_algorithm_name_is_pinned() {
    assert_eq!(ALGORITHM, "skitgubbe-shuffle-v1");
}

#[test]
fn pinned_vectors() {
    let awaited: CardSet = cards("2C 2D 2H 2S 3C 3D").into_iter().collect();
    for v in &VECTORS {
        let s = seed(v.seed);
        assert_eq!(s.to_hex(), v.seed);
        assert_eq!(s.commitment(), v.commitment, "commitment of {}", v.seed);
        let (deck, drawn) = deal(&s, 3);
        assert_eq!(deck[..10], cards(v.first_ten), "deck of {}", v.seed);
        assert_eq!(drawn, v.dealer_of_3, "dealer of {}", v.seed);
        assert_eq!(dealer(&s, 3), v.dealer_of_3);
        assert_eq!(
            outcome(&s, 1, awaited),
            cards(v.event_1),
            "event 1 of {}",
            v.seed
        );
    }
}

#[test]
fn the_whole_deck_of_the_zero_seed_is_pinned() {
    let expected = cards(
        "AC 2S JH 9C JD KD 4S 7C 3S 8H 2D 5C TC 5S AS JC TS AH JS 8S 8D 8C 6D 7D 4H KH \
         6H 9D QD 5H QC 3C QH 3H 7S 3D 7H AD 2C TH 5D 9H 4C KS KC 2H 9S QS 6C TD 6S 4D",
    );
    assert_eq!(deck(&seed(VECTORS[0].seed)), expected);
}

#[test]
fn other_player_counts_draw_from_the_same_position() {
    let s = seed(VECTORS[1].seed);
    assert_eq!((dealer(&s, 2), dealer(&s, 5)), (1, 4));
}

#[test]
fn each_event_has_its_own_order() {
    let s = seed(VECTORS[2].seed);
    let all = CardSet::FULL;
    let orders: Vec<Vec<Card>> = (1..=5).map(|k| outcome(&s, k, all)).collect();
    for (a, order) in orders.iter().enumerate() {
        for other in &orders[a + 1..] {
            assert_ne!(order, other);
        }
    }
    assert_ne!(orders[0], deck(&s));
    assert_eq!(outcome(&s, 4, all), orders[3], "an event is reproducible");
}

#[test]
fn an_outcome_orders_exactly_the_awaited_cards() {
    let s = seed(VECTORS[0].seed);
    for (k, text) in [(1, "7C"), (2, "2C 2D 2H 2S"), (3, "TD JD QD KD AD 9S 4H")] {
        let awaited: CardSet = cards(text).into_iter().collect();
        let order = outcome(&s, k, awaited);
        assert_eq!(order.len(), awaited.len() as usize);
        assert_eq!(order.iter().copied().collect::<CardSet>(), awaited);
    }
    assert!(outcome(&s, 1, CardSet::EMPTY).is_empty());
}

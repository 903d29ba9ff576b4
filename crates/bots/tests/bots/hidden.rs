//! The search cannot read hidden cards: it is given only a `View` (the type
//! says so), and two games that differ only in cards the seat cannot see
//! make it choose the same action from the same seeded generator.

use crate::common;

use rand::seq::SliceRandom;
use skit_bots::Strategy;
use skit_engine::{Card, CardSet, Game, Move, MoveKind, Phase, Preset, Ruleset};

const VIEWER: u8 = 1;

/// Plays `a` and `b` in lockstep while the viewer's views agree, comparing
/// the search's choices; returns how many decisions were compared.
fn compare(
    preset: Preset,
    seed: u64,
    swaps: &[(usize, usize)],
    search: &mut dyn Strategy,
) -> usize {
    let mut rng = common::rng(seed);
    let mut deck: Vec<Card> = Card::all().collect();
    deck.shuffle(&mut rng);
    let mut other = deck.clone();
    for &(i, j) in swaps {
        other.swap(i, j);
    }
    let swapped: CardSet = swaps
        .iter()
        .flat_map(|&(i, j)| [deck[i], deck[j]])
        .collect();
    let rules = Ruleset::preset(preset);
    let mut a = Game::deal(rules, 3, 0, &deck).expect("deal");
    let mut b = Game::deal(rules, 3, 0, &other).expect("deal");
    let mut compared = 0;
    while a.state().phase() != Phase::Over && a.state().awaited_cards().is_empty() {
        let (va, vb) = (a.view(Some(VIEWER)), b.view(Some(VIEWER)));
        if va != vb {
            break;
        }
        let Some(seat) = a.to_act().iter().next() else {
            break;
        };
        let kind = if seat == VIEWER && va.legal.len() > 1 {
            let ca = search.choose(&va, &mut common::rng(seed + 100 + compared as u64));
            let cb = search.choose(&vb, &mut common::rng(seed + 100 + compared as u64));
            assert_eq!(ca, cb, "{}: the search saw a hidden card", preset.name());
            compared += 1;
            ca.expect("a choice")
        } else {
            // Others keep the exchanged cards as long as they can.
            let legal = a.legal_moves_for(seat);
            let untouched = legal.iter().find(|m| match m.kind {
                MoveKind::Play(c) | MoveKind::Sluff(c) => (c & swapped).is_empty(),
                _ => true,
            });
            untouched.or(legal.first()).expect("a legal move").kind
        };
        let mv = Move::new(seat, kind);
        a.apply(&mv.into()).expect("legal in a");
        if b.apply(&mv.into()).is_err() {
            break;
        }
    }
    compared
}

#[test]
fn search_chooses_alike_when_only_unseen_cards_differ() {
    // Seat 1 gets deck[0], deck[3], deck[6]; deck[1] and deck[2] are the
    // other two seats' first cards; deck[40..] lie deep in the stock.
    let mut total = 0;
    for (preset, seed) in [
        (Preset::Skitgubbe, 1),
        (Preset::Skitgubbe, 2),
        (Preset::Allplay, 3),
        (Preset::Mas, 4),
    ] {
        total += compare(
            preset,
            seed,
            &[(1, 2), (40, 45), (41, 50)],
            &mut common::small_search(),
        );
    }
    println!("{total} decisions compared");
    assert!(total >= 8, "only {total} decisions compared");
}

#[test]
fn ismcts_chooses_alike_when_only_unseen_cards_differ() {
    let mut total = 0;
    for (preset, seed) in [(Preset::Skitgubbe, 5), (Preset::Mas, 6)] {
        total += compare(
            preset,
            seed,
            &[(1, 2), (40, 45), (41, 50)],
            &mut common::small_ismcts(),
        );
    }
    assert!(total >= 4, "only {total} decisions compared");
}

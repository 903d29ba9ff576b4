//! Phase two, shedding: beat cheaply, keep trumps for when they matter,
//! lead low cards and long runs, and pick up only when beating costs more
//! than the cards taken.

use skit_engine::rules::Pickup;
use skit_engine::{Card, CardSet, MoveKind};

use super::situation::Situation;

/// How hard a card is to beat: its rank, trumps above every plain card.
fn strength(sit: &Situation, card: Card) -> f32 {
    f32::from(card.rank().value()) + if sit.is_trump(card) { 13.0 } else { 0.0 }
}

/// Shedding the whole hand ends the game for this seat.
const OUT: f32 = 50.0;

pub(super) fn score(sit: &Situation, kind: &MoveKind) -> f32 {
    match kind {
        MoveKind::Play(cards) if sit.table.is_empty() => lead(sit, *cards),
        MoveKind::Play(cards) => beat(sit, *cards),
        MoveKind::Pickup => pickup(sit),
        _ => 0.0,
    }
}

fn going_out(sit: &Situation, cards: CardSet) -> f32 {
    if cards == sit.hand { OUT } else { 0.0 }
}

fn lead(sit: &Situation, cards: CardSet) -> f32 {
    let n = cards.len() as f32;
    let lowness: f32 = cards.iter().map(|c| (30.0 - strength(sit, c)) / 10.0).sum();
    lowness + n + going_out(sit, cards)
}

fn beat(sit: &Situation, cards: CardSet) -> f32 {
    let (Some(top), Some(beater)) = (
        sit.table
            .last()
            .and_then(|e| e.cards.iter().max_by_key(|c| c.rank())),
        cards.lowest(),
    ) else {
        return 0.0;
    };
    let cost = if beater.suit() == top.suit() {
        (strength(sit, beater) - strength(sit, top)) * 0.25
    } else {
        (strength(sit, beater) - 13.0) * 0.4 + 2.0
    };
    2.0 * cards.len() as f32 - cost + going_out(sit, cards)
}

/// Cards taken into the hand must all be shed again; low ones are worst.
fn pickup(sit: &Situation) -> f32 {
    let lay = match sit.options.pickup {
        Pickup::Top | Pickup::TopJoined => sit.table.last(),
        _ => sit.table.first(),
    };
    let taken = lay.map_or(CardSet::EMPTY, |e| e.cards);
    let penalty: f32 = taken
        .iter()
        .map(|c| 3.0 + (14.0 - f32::from(c.rank().value())) * 0.2)
        .sum();
    let late = if sit.hand.len() <= 2 { 2.0 } else { 1.0 };
    -penalty * late
}

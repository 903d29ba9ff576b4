//! Phase one, collecting: the cards a seat wins come back to it in phase
//! two, so high cards (and known trumps) are worth winning and keeping,
//! low ones worth giving away.

use arrayvec::ArrayVec;
use skit_engine::rules::Phase1Mode;
use skit_engine::{Card, CardSet, MoveKind};

use super::situation::{Entry, Situation};

/// What owning `card` at the start of phase two is worth.
fn worth(sit: &Situation, card: Card) -> f32 {
    let trump = if sit.is_trump(card) { 8.0 } else { 0.0 };
    f32::from(card.rank().value()) - 9.0 + trump
}

fn total(sit: &Situation, cards: CardSet) -> f32 {
    cards.iter().map(|c| worth(sit, c)).sum()
}

/// The rank of a play (one rank, or the highest card of it).
fn rank(cards: CardSet) -> u8 {
    cards.iter().map(|c| c.rank().value()).max().unwrap_or(0)
}

/// What a seat that leaves no trick on the table gets back on average: the
/// lowest card an opponent throws on a trick it cannot win.
const DUMPED: f32 = -3.0;

pub(super) fn score(sit: &Situation, kind: &MoveKind) -> f32 {
    match kind {
        MoveKind::Play(cards) => play(sit, *cards, *cards),
        MoveKind::Chance => chance(sit),
        MoveKind::Sluff(cards) => sluff(sit, *cards),
        MoveKind::Pickup => sit
            .table
            .first()
            .map_or(-10.0, |led| total(sit, led.cards) - 1.0),
        _ => 0.0,
    }
}

fn plays(sit: &Situation) -> ArrayVec<Entry, 52> {
    sit.table.iter().filter(|e| !e.sluff).copied().collect()
}

/// A play of `cards`; `own` is what leaves the hand (empty for a chance).
fn play(sit: &Situation, cards: CardSet, own: CardSet) -> f32 {
    let plays = plays(sit);
    let pot = total(
        sit,
        sit.table.iter().fold(CardSet::EMPTY, |a, e| a | e.cards),
    );
    let extra = 0.1 * own.len().saturating_sub(1) as f32;
    match sit.options.mode {
        Phase1Mode::TurnedTrump => match plays.first().and_then(|e| e.cards.first()) {
            Some(led) if plays.len() == 1 => turned_answer(sit, led, cards, own),
            _ => -total(sit, own),
        },
        Phase1Mode::Pairs if plays.len() % 2 == 0 => lead(sit, cards, own, 1),
        Phase1Mode::All if plays.is_empty() => lead(sit, cards, own, sit.players - 1),
        _ => {
            let best = plays.iter().map(|e| rank(e.cards)).max().unwrap_or(0);
            let mine = rank(cards);
            if mine > best {
                pot + total(sit, cards - own) + 0.5 - extra
            } else if mine < best {
                -total(sit, own)
            } else {
                -0.3 * total(sit, own)
            }
        }
    }
}

/// Leading: an opponent who can beat takes the lead card; one who cannot
/// throws a low card on it.
fn lead(sit: &Situation, cards: CardSet, own: CardSet, opponents: u8) -> f32 {
    let r = rank(cards);
    let unseen = sit.unseen.len().max(1) as f32;
    let higher = sit.unseen.iter().filter(|c| c.rank().value() > r).count() as f32;
    let p = higher / unseen;
    let q = 1.0 - (1.0 - p).powi(3 * i32::from(opponents.max(1)));
    let kept = total(sit, cards - own);
    q * -total(sit, own) + (1.0 - q) * (DUMPED + kept) - 0.1 * own.len() as f32
}

/// With a turned-up trump: beat (win both cards), play low (`must_follow`:
/// the leader wins it) or pick up.
fn turned_answer(sit: &Situation, led: Card, cards: CardSet, own: CardSet) -> f32 {
    let Some(card) = cards.first() else {
        return 0.0;
    };
    let beats = if card.suit() == led.suit() {
        card.rank() > led.rank()
    } else {
        sit.is_trump(card) && !sit.is_trump(led)
    };
    if beats {
        worth(sit, led) + 0.5 - 0.05 * total(sit, own)
    } else {
        -total(sit, own) - 1.0
    }
}

/// The average over the cards a chance may turn up.
fn chance(sit: &Situation) -> f32 {
    let n = sit.unseen.len();
    if n == 0 {
        return -100.0;
    }
    let sum: f32 = sit
        .unseen
        .iter()
        .map(|c| play(sit, CardSet::single(c), CardSet::EMPTY))
        .sum();
    sum / n as f32
}

/// Sluffed cards go to the trick's winner: good for junk, unless ours.
fn sluff(sit: &Situation, cards: CardSet) -> f32 {
    let winner = plays(sit)
        .iter()
        .max_by_key(|e| rank(e.cards))
        .map(|e| e.seat);
    if winner == Some(sit.seat) {
        -5.0 - total(sit, cards).abs()
    } else {
        -total(sit, cards)
    }
}

//! A fixed numbering of every action kind, for learning code that wants a
//! discrete action space (OpenSpiel, PettingZoo). Each number stands for one
//! [`MoveKind`], the same object the service's API exchanges, so a number
//! and the API's action are interchangeable. The blocks, in order (a card's
//! number is [`Card::sort_key`]: `(rank - 2) * 4 + suit`, suits C D H S):
//!
//! | numbers | action |
//! |---|---|
//! | 0 to 51 | play one card |
//! | 52 to 181 | play 2 or 3 cards of one rank: rank × the 10 suit sets, by suit mask ascending |
//! | 182 to 493 | play a run: suit × (lowest, highest) rank, lowest then highest ascending |
//! | 494 to 499 | chance, pickup, pass, claim, rob, bank |
//! | 500 to 23,977 | sluff 1, 2 or 3 cards: by size, then the cards' combinatorial (colex) rank |
//!
//! A sluff of four or more cards (possible only when a phase-one hand holds
//! more than three cards, under `phase1.ties: take_back`) has no number.

use crate::{Card, CardSet, MoveKind, Rank, Suit};

/// How many numbers there are.
pub const NUM_ACTIONS: u32 = SLUFF3 + 22_100;

const MULTI: u32 = 52;
const RUNS: u32 = MULTI + 130;
const FLAGS: u32 = RUNS + 4 * 78;
const SLUFF1: u32 = FLAGS + 6;
const SLUFF2: u32 = SLUFF1 + 52;
const SLUFF3: u32 = SLUFF2 + 1326;

/// The suit masks of a 2- or 3-card play of one rank, ascending.
const SUIT_SETS: [u8; 10] = [3, 5, 6, 7, 9, 10, 11, 12, 13, 14];

const FLAG_KINDS: [MoveKind; 6] = [
    MoveKind::Chance,
    MoveKind::Pickup,
    MoveKind::Pass,
    MoveKind::Claim,
    MoveKind::Rob,
    MoveKind::Bank,
];

fn number(card: Card) -> u32 {
    u32::from(card.sort_key())
}

fn card(number: u32) -> Option<Card> {
    let rank = Rank::new(u8::try_from(number / 4 + 2).ok()?)?;
    (number < 52).then(|| Card::new(rank, Suit::from_index((number % 4) as u8)))
}

fn binomial(n: u32, k: u32) -> u32 {
    if n < k {
        return 0;
    }
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

/// The offset of the run from `low` to `high` (rank values) within a suit.
fn run_offset(low: u32, high: u32) -> u32 {
    (2..low).map(|l| 14 - l).sum::<u32>() + (high - low - 1)
}

impl MoveKind {
    /// This action's number, or `None` for a sluff of four or more cards or
    /// a play no rule allows (mixed ranks that are no run).
    pub fn index(&self) -> Option<u32> {
        match *self {
            MoveKind::Play(cards) => play_index(cards),
            MoveKind::Sluff(cards) => sluff_index(cards),
            kind => FLAG_KINDS
                .iter()
                .position(|&k| k == kind)
                .map(|i| FLAGS + i as u32),
        }
    }

    /// The action with number `n`, if `n` is below [`NUM_ACTIONS`].
    pub fn from_index(n: u32) -> Option<MoveKind> {
        match n {
            _ if n < MULTI => card(n).map(|c| MoveKind::Play(CardSet::single(c))),
            _ if n < RUNS => {
                let (rank, set) = ((n - MULTI) / 10 + 2, SUIT_SETS[((n - MULTI) % 10) as usize]);
                let rank = Rank::new(rank as u8)?;
                let cards = Suit::ALL
                    .iter()
                    .filter(|s| set >> s.index() & 1 == 1)
                    .map(|&s| Card::new(rank, s))
                    .collect();
                Some(MoveKind::Play(cards))
            }
            _ if n < FLAGS => {
                let (suit, mut offset) =
                    (Suit::from_index(((n - RUNS) / 78) as u8), (n - RUNS) % 78);
                let mut low = 2;
                while offset >= 14 - low {
                    offset -= 14 - low;
                    low += 1;
                }
                let high = low + 1 + offset;
                let cards = (low..=high)
                    .filter_map(|r| Rank::new(r as u8).map(|r| Card::new(r, suit)))
                    .collect();
                Some(MoveKind::Play(cards))
            }
            _ if n < SLUFF1 => Some(FLAG_KINDS[(n - FLAGS) as usize]),
            _ if n < SLUFF2 => Some(MoveKind::Sluff(colex_unrank(n - SLUFF1, 1)?)),
            _ if n < SLUFF3 => Some(MoveKind::Sluff(colex_unrank(n - SLUFF2, 2)?)),
            _ if n < NUM_ACTIONS => Some(MoveKind::Sluff(colex_unrank(n - SLUFF3, 3)?)),
            _ => None,
        }
    }
}

fn play_index(cards: CardSet) -> Option<u32> {
    let first = cards.lowest()?;
    let len = cards.len();
    if len == 1 {
        return Some(number(first));
    }
    if cards == cards & CardSet::rank(first.rank()) && len <= 3 {
        let mask = cards.iter().fold(0u8, |m, c| m | 1 << c.suit().index());
        let pos = SUIT_SETS.iter().position(|&s| s == mask)?;
        return Some(MULTI + u32::from(first.rank().value() - 2) * 10 + pos as u32);
    }
    let (low, high) = (
        u32::from(first.rank().value()),
        u32::from(first.rank().value()) + len - 1,
    );
    let run = (low..=high)
        .all(|r| Rank::new(r as u8).is_some_and(|r| cards.contains(Card::new(r, first.suit()))));
    run.then(|| RUNS + u32::from(first.suit().index()) * 78 + run_offset(low, high))
}

fn sluff_index(cards: CardSet) -> Option<u32> {
    let mut numbers: Vec<u32> = cards.iter().map(number).collect();
    numbers.sort_unstable();
    let rank: u32 = numbers
        .iter()
        .enumerate()
        .map(|(i, &c)| binomial(c, i as u32 + 1))
        .sum();
    match numbers.len() {
        1 => Some(SLUFF1 + rank),
        2 => Some(SLUFF2 + rank),
        3 => Some(SLUFF3 + rank),
        _ => None,
    }
}

/// The `k` cards whose colex rank is `rank`.
fn colex_unrank(mut rank: u32, k: u32) -> Option<CardSet> {
    let mut cards = CardSet::EMPTY;
    for i in (1..=k).rev() {
        let mut c = i - 1;
        while binomial(c + 1, i) <= rank {
            c += 1;
        }
        rank -= binomial(c, i);
        cards.insert(card(c)?);
    }
    Some(cards)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every number names one action, and that action's number is it.
    #[test]
    fn numbers_and_actions_are_one_to_one() {
        let mut seen = std::collections::HashSet::new();
        for n in 0..NUM_ACTIONS {
            let kind = MoveKind::from_index(n).unwrap_or_else(|| panic!("no action for {n}"));
            assert_eq!(kind.index(), Some(n), "{kind:?}");
            assert!(seen.insert(kind), "{kind:?} twice");
        }
        assert_eq!(MoveKind::from_index(NUM_ACTIONS), None);
        let four: CardSet = Card::all().take(4).collect();
        assert_eq!(MoveKind::Sluff(four).index(), None);
    }
}

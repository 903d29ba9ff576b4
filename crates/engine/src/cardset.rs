//! A set of cards as a 64-bit mask: one 16-bit lane per suit, bit `rank - 2`.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not, Sub};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::{Card, Rank, Suit};

/// A set of cards. Copy, 8 bytes; every operation is a few instructions.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct CardSet(u64);

const LANE: u64 = 0x1FFF;
const FULL: u64 = LANE | LANE << 16 | LANE << 32 | LANE << 48;
const RANK_BITS: u64 = 1 | 1 << 16 | 1 << 32 | 1 << 48;

impl CardSet {
    pub const EMPTY: CardSet = CardSet(0);
    pub const FULL: CardSet = CardSet(FULL);

    #[inline]
    pub const fn from_bits(bits: u64) -> CardSet {
        CardSet(bits & FULL)
    }

    #[inline]
    pub const fn bits(self) -> u64 {
        self.0
    }

    #[inline]
    pub const fn single(card: Card) -> CardSet {
        CardSet(1 << card.index())
    }

    #[inline]
    pub const fn suit(suit: Suit) -> CardSet {
        CardSet(LANE << (suit.index() * 16))
    }

    #[inline]
    pub const fn rank(rank: Rank) -> CardSet {
        CardSet(RANK_BITS << (rank.value() - 2))
    }

    #[inline]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[inline]
    pub const fn contains(self, card: Card) -> bool {
        self.0 >> card.index() & 1 == 1
    }

    #[inline]
    pub const fn is_subset(self, other: CardSet) -> bool {
        self.0 & !other.0 == 0
    }

    #[inline]
    pub fn insert(&mut self, card: Card) {
        self.0 |= 1 << card.index();
    }

    #[inline]
    pub fn remove(&mut self, card: Card) {
        self.0 &= !(1 << card.index());
    }

    /// The lowest card by index (clubs first, then by rank).
    #[inline]
    pub fn first(self) -> Option<Card> {
        (self.0 != 0).then(|| Card::from_set_bit(self.0.trailing_zeros()))
    }

    /// The card at the `n`-th set bit, for uniform random choice.
    #[inline]
    pub fn nth(self, n: u32) -> Option<Card> {
        if n >= self.len() {
            return None;
        }
        Some(Card::from_set_bit(crate::select::nth_set_bit(self.0, n)))
    }

    /// The ranks present, as a 13-bit mask (bit `rank - 2`).
    #[inline]
    pub const fn rank_mask(self) -> u16 {
        let b = self.0;
        ((b | b >> 16 | b >> 32 | b >> 48) & LANE) as u16
    }

    /// Cards of this set whose rank is in `ranks` (bit `rank - 2`).
    #[inline]
    pub const fn with_ranks(self, ranks: u16) -> CardSet {
        let r = ranks as u64 & LANE;
        CardSet(self.0 & (r | r << 16 | r << 32 | r << 48))
    }

    /// Cards of this set ranked strictly above `rank` in the same suit lane.
    #[inline]
    pub const fn above(self, card: Card) -> CardSet {
        let lane_start = (card.index() / 16) * 16;
        let above = (LANE << lane_start) & !((2u64 << card.index()) - 1);
        CardSet(self.0 & above)
    }

    /// Cards that extend a run upwards: `self` shifted one rank up within lanes.
    #[inline]
    pub const fn shift_up(self) -> CardSet {
        CardSet((self.0 << 1) & FULL)
    }

    #[inline]
    pub fn iter(self) -> CardIter {
        CardIter(self.0)
    }

    /// The cards in SPEC's "ascending" order: rank, then suit C D H S.
    pub fn ascending(self) -> impl Iterator<Item = Card> {
        let mut ranks = self.rank_mask();
        std::iter::from_fn(move || {
            (ranks != 0).then(|| {
                let low = ranks.trailing_zeros() as u8;
                ranks &= ranks - 1;
                (self & CardSet(RANK_BITS << low)).iter()
            })
        })
        .flatten()
    }

    /// The lowest card in SPEC's order (rank, then suit).
    #[inline]
    pub fn lowest(self) -> Option<Card> {
        let ranks = self.rank_mask();
        (ranks != 0)
            .then(|| CardSet(self.0 & RANK_BITS << ranks.trailing_zeros()).first())
            .flatten()
    }
}

/// Iterates a set in index order (suit by suit, each low to high).
#[derive(Clone, Debug)]
pub struct CardIter(u64);

impl Iterator for CardIter {
    type Item = Card;

    #[inline]
    fn next(&mut self) -> Option<Card> {
        if self.0 == 0 {
            return None;
        }
        let index = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(Card::from_set_bit(index))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for CardIter {}

impl IntoIterator for CardSet {
    type Item = Card;
    type IntoIter = CardIter;

    #[inline]
    fn into_iter(self) -> CardIter {
        self.iter()
    }
}

impl FromIterator<Card> for CardSet {
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> CardSet {
        let mut set = CardSet::EMPTY;
        for card in iter {
            set.insert(card);
        }
        set
    }
}

impl BitOr for CardSet {
    type Output = CardSet;
    #[inline]
    fn bitor(self, rhs: CardSet) -> CardSet {
        CardSet(self.0 | rhs.0)
    }
}

impl BitOrAssign for CardSet {
    #[inline]
    fn bitor_assign(&mut self, rhs: CardSet) {
        self.0 |= rhs.0;
    }
}

impl BitAnd for CardSet {
    type Output = CardSet;
    #[inline]
    fn bitand(self, rhs: CardSet) -> CardSet {
        CardSet(self.0 & rhs.0)
    }
}

impl BitAndAssign for CardSet {
    #[inline]
    fn bitand_assign(&mut self, rhs: CardSet) {
        self.0 &= rhs.0;
    }
}

impl Sub for CardSet {
    type Output = CardSet;
    #[inline]
    fn sub(self, rhs: CardSet) -> CardSet {
        CardSet(self.0 & !rhs.0)
    }
}

impl Not for CardSet {
    type Output = CardSet;
    #[inline]
    fn not(self) -> CardSet {
        CardSet(!self.0 & FULL)
    }
}

impl fmt::Debug for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.ascending()).finish()
    }
}

/// Serialized as a list of card strings, ascending.
impl Serialize for CardSet {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.ascending())
    }
}

impl<'de> Deserialize<'de> for CardSet {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let cards = Vec::<Card>::deserialize(d)?;
        let set: CardSet = cards.iter().copied().collect();
        if set.len() as usize != cards.len() {
            return Err(serde::de::Error::custom("a card is listed twice"));
        }
        Ok(set)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(cards: &str) -> CardSet {
        cards
            .split_whitespace()
            .map(|c| c.parse::<Card>().expect("card"))
            .collect()
    }

    #[test]
    fn rank_and_suit_masks() {
        assert_eq!(CardSet::rank(Rank::ACE), set("AC AD AH AS"));
        assert_eq!(CardSet::suit(Suit::Hearts).len(), 13);
        assert_eq!(set("2C 7D 7S").rank_mask(), 1 | 1 << 5);
        assert_eq!(set("2C 7D 7S").with_ranks(1 << 5), set("7D 7S"));
        assert_eq!(CardSet::FULL.len(), 52);
    }

    #[test]
    fn above_stays_in_the_suit() {
        let card: Card = "9H".parse().expect("card");
        assert_eq!(CardSet::FULL.above(card), set("TH JH QH KH AH"));
        assert_eq!(set("AS").shift_up(), CardSet::EMPTY);
    }

    #[test]
    fn nth_is_the_nth_card_in_index_order() {
        let mut bits = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..200 {
            bits ^= bits << 13;
            bits ^= bits >> 7;
            bits ^= bits << 17;
            let set = CardSet::from_bits(bits);
            for n in 0..=set.len() {
                assert_eq!(set.nth(n), set.iter().nth(n as usize));
            }
        }
    }

    #[test]
    fn ascending_is_rank_then_suit() {
        let order: Vec<String> = set("3C 2S 2C 3D")
            .ascending()
            .map(|c| c.to_string())
            .collect();
        assert_eq!(order, ["2C", "2S", "3C", "3D"]);
    }
}

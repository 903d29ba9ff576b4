//! Cards, ranks and suits, with the `TS` / `2C` notation of SPEC section 1.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A suit, in the order `C D H S` used for sorting (SPEC 8.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Suit {
    Clubs = 0,
    Diamonds = 1,
    Hearts = 2,
    Spades = 3,
}

impl Suit {
    pub const ALL: [Suit; 4] = [Suit::Clubs, Suit::Diamonds, Suit::Hearts, Suit::Spades];

    pub const fn index(self) -> u8 {
        self as u8
    }

    pub const fn from_index(i: u8) -> Suit {
        Suit::ALL[(i & 3) as usize]
    }

    pub const fn letter(self) -> char {
        match self {
            Suit::Clubs => 'C',
            Suit::Diamonds => 'D',
            Suit::Hearts => 'H',
            Suit::Spades => 'S',
        }
    }

    pub fn from_letter(c: char) -> Option<Suit> {
        match c.to_ascii_uppercase() {
            'C' => Some(Suit::Clubs),
            'D' => Some(Suit::Diamonds),
            'H' => Some(Suit::Hearts),
            'S' => Some(Suit::Spades),
            _ => None,
        }
    }

    /// Diamonds and hearts are red.
    pub const fn is_red(self) -> bool {
        matches!(self, Suit::Diamonds | Suit::Hearts)
    }
}

impl fmt::Display for Suit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

impl Serialize for Suit {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Suit {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        let mut chars = text.chars();
        match (chars.next().and_then(Suit::from_letter), chars.next()) {
            (Some(suit), None) => Ok(suit),
            _ => Err(serde::de::Error::custom(format!("not a suit: {text:?}"))),
        }
    }
}

/// A rank, 2 (value 2) to ace (value 14). Aces are only high.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rank(u8);

impl Rank {
    pub const TWO: Rank = Rank(2);
    pub const ACE: Rank = Rank(14);

    /// A rank from its value, 2..=14.
    pub const fn new(value: u8) -> Option<Rank> {
        if value >= 2 && value <= 14 {
            Some(Rank(value))
        } else {
            None
        }
    }

    pub const fn value(self) -> u8 {
        self.0
    }

    pub const fn letter(self) -> char {
        b"23456789TJQKA"[(self.0 - 2) as usize] as char
    }

    pub fn from_letter(c: char) -> Option<Rank> {
        let upper = c.to_ascii_uppercase();
        b"23456789TJQKA"
            .iter()
            .position(|&l| l as char == upper)
            .map(|i| Rank(i as u8 + 2))
    }

    /// Every rank, low to high.
    pub fn all() -> impl DoubleEndedIterator<Item = Rank> {
        (2..=14).map(Rank)
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// One card. Its index is `suit * 16 + (rank - 2)`: each suit owns a 16-bit
/// lane of a [`crate::CardSet`], so runs and ranks are both cheap bit tricks.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Card(u8);

impl Card {
    pub const fn new(rank: Rank, suit: Suit) -> Card {
        Card(suit.index() * 16 + rank.0 - 2)
    }

    /// The card at a bit index; `None` for the unused bits of a suit lane.
    pub const fn from_index(index: u8) -> Option<Card> {
        if index < 64 && index % 16 < 13 {
            Some(Card(index))
        } else {
            None
        }
    }

    /// The card at a bit index known to be a card's (a set bit of a
    /// [`crate::CardSet`], whose bits never leave the 52 card positions).
    #[inline]
    pub(crate) const fn from_set_bit(index: u32) -> Card {
        debug_assert!(index < 64 && index % 16 < 13);
        Card(index as u8)
    }

    #[inline]
    pub const fn index(self) -> u8 {
        self.0
    }

    #[inline]
    pub const fn rank(self) -> Rank {
        Rank(self.0 % 16 + 2)
    }

    #[inline]
    pub const fn suit(self) -> Suit {
        Suit::from_index(self.0 / 16)
    }

    /// The order used wherever SPEC says "ascending": rank, then suit C D H S.
    pub const fn sort_key(self) -> u8 {
        (self.0 % 16) * 4 + self.0 / 16
    }

    /// All 52 cards, clubs first, each suit two to ace.
    pub fn all() -> impl Iterator<Item = Card> {
        (0..64u8).filter_map(Card::from_index)
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.rank(), self.suit())
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A card text that is not rank-then-suit (`TS`, `2c`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not a card: {0:?} (write rank then suit, like \"TS\" or \"2C\")")]
pub struct ParseCardError(pub String);

impl FromStr for Card {
    type Err = ParseCardError;

    fn from_str(s: &str) -> Result<Card, ParseCardError> {
        let mut chars = s.chars();
        match (chars.next(), chars.next(), chars.next()) {
            (Some(r), Some(u), None) => match (Rank::from_letter(r), Suit::from_letter(u)) {
                (Some(rank), Some(suit)) => Ok(Card::new(rank, suit)),
                _ => Err(ParseCardError(s.to_owned())),
            },
            _ => Err(ParseCardError(s.to_owned())),
        }
    }
}

impl Serialize for Card {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Card {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_round_trips_and_accepts_lower_case() {
        for card in Card::all() {
            assert_eq!(card.to_string().parse::<Card>(), Ok(card));
        }
        assert_eq!("ts".parse::<Card>().map(|c| c.to_string()), Ok("TS".into()));
        assert!("1S".parse::<Card>().is_err());
        assert!("TSX".parse::<Card>().is_err());
        assert_eq!(Card::all().count(), 52);
    }
}

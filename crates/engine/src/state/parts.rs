//! The fixed-size pieces a [`super::State`] is made of: the stock and reserve,
//! and the table (who owns a card is in `owners.rs`).

use crate::{Card, CardSet};

const FILLER: Card = match Card::from_index(0) {
    Some(card) => card,
    None => unreachable!(),
};

/// The stock (top drawn first) and the two-player reserve, as two stacks in
/// one buffer: 52 - 3n cards at most, and n is at least 2.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Piles {
    cards: [Card; 46],
    stock: u8,
    reserve: u8,
}

impl Piles {
    /// `stock` and `reserve` are listed top first.
    pub fn new(stock: &[Card], reserve: &[Card]) -> Piles {
        let mut piles = Piles {
            cards: [FILLER; 46],
            stock: 0,
            reserve: 0,
        };
        for &card in stock.iter().rev() {
            piles.cards[piles.stock as usize] = card;
            piles.stock += 1;
        }
        for &card in reserve.iter().rev() {
            piles.reserve += 1;
            piles.cards[46 - piles.reserve as usize] = card;
        }
        piles
    }

    pub fn stock_len(&self) -> u32 {
        u32::from(self.stock)
    }

    pub fn reserve_len(&self) -> u32 {
        u32::from(self.reserve)
    }

    pub fn draw_stock(&mut self) -> Option<Card> {
        (self.stock > 0).then(|| {
            self.stock -= 1;
            self.cards[self.stock as usize]
        })
    }

    pub fn draw_reserve(&mut self) -> Option<Card> {
        (self.reserve > 0).then(|| {
            let card = self.cards[46 - self.reserve as usize];
            self.reserve -= 1;
            card
        })
    }

    /// The card a draw or a chance would take next.
    pub fn stock_top(&self) -> Option<Card> {
        (self.stock > 0).then(|| self.cards[self.stock as usize - 1])
    }

    /// The stock's bottom card (the turned-up trump lies there in `mas`).
    pub fn stock_bottom(&self) -> Option<Card> {
        (self.stock > 0).then_some(self.cards[0])
    }

    pub fn set_stock_bottom(&mut self, card: Card) {
        if self.stock > 0 {
            self.cards[0] = card;
        }
    }

    /// Replaces every live card by `f(card)`.
    pub fn map_cards(&mut self, f: impl Fn(Card) -> Card) {
        let stock = self.stock as usize;
        for card in &mut self.cards[..stock] {
            *card = f(*card);
        }
        for card in &mut self.cards[46 - self.reserve as usize..] {
            *card = f(*card);
        }
    }

    /// The stock, bottom card first.
    pub fn stock_cards(&self) -> &[Card] {
        &self.cards[..self.stock as usize]
    }

    /// The reserve, top card (drawn first) first.
    pub fn reserve_cards(&self) -> &[Card] {
        &self.cards[46 - self.reserve as usize..]
    }

    pub fn stock_set(&self) -> CardSet {
        self.cards[..self.stock as usize].iter().copied().collect()
    }

    pub fn reserve_set(&self) -> CardSet {
        self.cards[46 - self.reserve as usize..]
            .iter()
            .copied()
            .collect()
    }
}

/// The cards on the table in the order they were laid, and which of them
/// starts a play (phase one) or lay (phase two). The count and the start
/// marks share eight bytes read and written as one `u64` (the count in the
/// low byte, a start bit per position above it), so the table packs into 60
/// bytes; the cards of one play or lay lie ascending.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Table {
    cards: [Card; 52],
    meta: [u8; 8],
}

/// Position `i` of the table is marked by this bit of the meta word.
const START: u32 = 8;

impl Table {
    pub const EMPTY: Table = Table {
        cards: [FILLER; 52],
        meta: [0; 8],
    };

    #[inline]
    fn meta(&self) -> u64 {
        u64::from_le_bytes(self.meta)
    }

    #[inline]
    fn set_meta(&mut self, len: usize, starts: u64) {
        self.meta = (starts << START | len as u64).to_le_bytes();
    }

    /// A start bit per play or lay, bit `i` for position `i`.
    #[inline]
    fn starts(&self) -> u64 {
        self.meta() >> START
    }

    #[inline]
    pub fn len(&self) -> usize {
        usize::from(self.meta[0])
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.meta[0] == 0
    }

    #[inline]
    pub fn cards(&self) -> &[Card] {
        &self.cards[..self.len()]
    }

    /// The card laid last.
    #[inline]
    pub fn last(&self) -> Option<Card> {
        let last = self.len().checked_sub(1)?;
        self.cards.get(last).copied()
    }

    #[inline]
    pub fn set(&self) -> CardSet {
        self.cards().iter().copied().collect()
    }

    /// Lays one play or lay, ascending (rank, then suit).
    #[inline(always)]
    pub fn push(&mut self, set: CardSet) {
        let meta = self.meta();
        let len = (meta & 0xFF) as usize;
        match (set.first(), self.cards.get_mut(len)) {
            (Some(card), Some(slot)) if set.len() == 1 => {
                // One card: count it and mark its position as a start at once.
                *slot = card;
                self.meta = (meta + 1 + (1 << (START as usize + len))).to_le_bytes();
            }
            _ => self.push_many(set),
        }
    }

    fn push_many(&mut self, set: CardSet) {
        let mut len = self.len();
        let starts = self.starts() | 1 << len;
        // One rank or one suit (every play and lay): index order is ascending.
        let one_suit = crate::Suit::ALL
            .iter()
            .any(|&s| set.is_subset(CardSet::suit(s)));
        if one_suit || set.rank_mask().count_ones() <= 1 {
            for card in set {
                self.cards[len] = card;
                len += 1;
            }
        } else {
            for card in set.ascending() {
                self.cards[len] = card;
                len += 1;
            }
        }
        self.set_meta(len, starts);
    }

    #[inline]
    pub fn clear(&mut self) {
        *self = Table::EMPTY;
    }

    /// Replaces every card on the table by `f(card)`.
    pub fn map_cards(&mut self, f: impl Fn(Card) -> Card) {
        let len = self.len();
        for card in &mut self.cards[..len] {
            *card = f(*card);
        }
    }

    /// The number of plays or lays.
    #[inline]
    pub fn groups(&self) -> u32 {
        self.starts().count_ones()
    }

    /// Each play or lay as a range of card positions, oldest first.
    #[inline]
    pub fn group_ranges(&self) -> Groups {
        Groups {
            bits: self.starts(),
            back_end: self.len(),
        }
    }

    /// The first (lowest) card of the second newest and of the newest play
    /// or lay, read straight off the start bits.
    #[inline]
    pub fn last_two_firsts(&self) -> Option<(Card, Card)> {
        let starts = self.starts();
        let last = 63_u32.checked_sub(starts.leading_zeros())?;
        let rest = starts & !(1 << last);
        let before = 63_u32.checked_sub(rest.leading_zeros())?;
        let card = |i: u32| self.cards.get(i as usize).copied();
        Some((card(before)?, card(last)?))
    }

    /// The first position of each play or lay, newest first.
    #[inline]
    pub fn starts_newest_first(&self) -> impl Iterator<Item = usize> {
        let mut bits = self.starts();
        std::iter::from_fn(move || {
            let start = 63_u32.checked_sub(bits.leading_zeros())?;
            bits &= !(1 << start);
            Some(start as usize)
        })
    }

    #[inline]
    pub fn group(&self, range: std::ops::Range<usize>) -> CardSet {
        self.cards[range].iter().copied().collect()
    }

    /// Removes the newest play or lay and returns its cards.
    #[inline]
    pub fn pop_group(&mut self) -> CardSet {
        let starts = self.starts();
        let Some(start) = 63_u32.checked_sub(starts.leading_zeros()) else {
            return CardSet::EMPTY;
        };
        let start = start as usize;
        let taken = self.group(start..self.len());
        self.set_meta(start, starts & !(1 << start));
        taken
    }

    /// Removes the cards at `range` (whole groups, or the first card of one),
    /// keeping the rest of the table in order.
    pub fn remove(&mut self, range: std::ops::Range<usize>) {
        let (start, end) = (range.start, range.end);
        let len = self.len();
        let starts = self.starts();
        if end == len {
            // The newest groups: nothing to move.
            self.set_meta(start, starts & ((1u64 << start) - 1));
            return;
        }
        self.cards.copy_within(end..len, start);
        let mut kept = starts & ((1u64 << start) - 1) | starts >> end << start;
        // A group that loses only its first cards still starts where they were.
        if starts >> start & 1 == 1 && end < len {
            kept |= 1 << start;
        }
        self.set_meta(len - (end - start), kept);
    }
}

/// The plays or lays of a [`Table`] as position ranges, from either end,
/// read straight off the start bits.
#[derive(Clone, Debug)]
pub(crate) struct Groups {
    bits: u64,
    back_end: usize,
}

impl Iterator for Groups {
    type Item = std::ops::Range<usize>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.bits == 0 {
            return None;
        }
        let start = self.bits.trailing_zeros() as usize;
        self.bits &= self.bits - 1;
        let end = if self.bits == 0 {
            self.back_end
        } else {
            self.bits.trailing_zeros() as usize
        };
        Some(start..end)
    }
}

impl DoubleEndedIterator for Groups {
    fn next_back(&mut self) -> Option<Self::Item> {
        if self.bits == 0 {
            return None;
        }
        let start = 63 - self.bits.leading_zeros() as usize;
        self.bits &= !(1 << start);
        let end = self.back_end;
        self.back_end = start;
        Some(start..end)
    }
}

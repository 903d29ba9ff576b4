//! The fixed-size pieces a [`super::State`] is made of: the stock and reserve,
//! the table, and who owns a card that is on the table or in a pile.

use crate::{Card, CardSet, Seat};

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

/// The cards on the table in the order they were laid. `starts` marks the
/// first card of each play (phase one) or lay (phase two) as a 52-bit mask
/// kept in seven bytes, so the table packs into 60 bytes; the cards of one
/// play or lay lie ascending.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Table {
    cards: [Card; 52],
    len: u8,
    starts: [u8; 7],
}

impl Table {
    pub const EMPTY: Table = Table {
        cards: [FILLER; 52],
        len: 0,
        starts: [0; 7],
    };

    fn starts(&self) -> u64 {
        let mut bytes = [0u8; 8];
        bytes[..7].copy_from_slice(&self.starts);
        u64::from_le_bytes(bytes)
    }

    fn set_starts(&mut self, starts: u64) {
        self.starts.copy_from_slice(&starts.to_le_bytes()[..7]);
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn cards(&self) -> &[Card] {
        &self.cards[..self.len as usize]
    }

    pub fn set(&self) -> CardSet {
        self.cards().iter().copied().collect()
    }

    /// Lays one play or lay, ascending (rank, then suit).
    pub fn push(&mut self, set: CardSet) {
        self.set_starts(self.starts() | 1 << self.len);
        if set.len() == 1 {
            if let Some(card) = set.first() {
                self.cards[self.len as usize] = card;
                self.len += 1;
            }
            return;
        }
        // One rank or one suit (every play and lay): index order is ascending.
        let one_suit = crate::Suit::ALL
            .iter()
            .any(|&s| set.is_subset(CardSet::suit(s)));
        if one_suit || set.rank_mask().count_ones() <= 1 {
            for card in set {
                self.cards[self.len as usize] = card;
                self.len += 1;
            }
        } else {
            for card in set.ascending() {
                self.cards[self.len as usize] = card;
                self.len += 1;
            }
        }
    }

    pub fn clear(&mut self) {
        *self = Table::EMPTY;
    }

    /// Replaces every card on the table by `f(card)`.
    pub fn map_cards(&mut self, f: impl Fn(Card) -> Card) {
        let len = self.len as usize;
        for card in &mut self.cards[..len] {
            *card = f(*card);
        }
    }

    /// The number of plays or lays.
    pub fn groups(&self) -> u32 {
        self.starts().count_ones()
    }

    /// Each play or lay as a range of card positions, oldest first.
    pub fn group_ranges(&self) -> Groups {
        Groups {
            bits: self.starts(),
            back_end: self.len as usize,
        }
    }

    pub fn group(&self, range: std::ops::Range<usize>) -> CardSet {
        self.cards[range].iter().copied().collect()
    }

    /// The newest lay.
    pub fn top(&self) -> Option<std::ops::Range<usize>> {
        let starts = self.starts();
        (starts != 0).then(|| (63 - starts.leading_zeros()) as usize..self.len as usize)
    }

    /// Removes the cards at `range` (whole groups, or the first card of one),
    /// keeping the rest of the table in order.
    pub fn remove(&mut self, range: std::ops::Range<usize>) {
        let (start, end) = (range.start, range.end);
        let len = self.len as usize;
        let starts = self.starts();
        if end == len {
            // The newest groups: nothing to move.
            self.set_starts(starts & ((1u64 << start) - 1));
            self.len = start as u8;
            return;
        }
        self.cards.copy_within(end..len, start);
        let mut kept = starts & ((1u64 << start) - 1) | starts >> end << start;
        // A group that loses only its first cards still starts where they were.
        if starts >> start & 1 == 1 && end < len {
            kept |= 1 << start;
        }
        self.set_starts(kept);
        self.len -= (end - start) as u8;
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

/// Who owns each card that lies on the table or in a phase-one pile: a
/// nibble per card (dense index suit * 13 + rank), the low three bits the
/// seat, the high bit set for a sluffed table card.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub(crate) struct Owners([u8; 26]);

fn dense(card: Card) -> usize {
    let i = card.index() as usize;
    i / 16 * 13 + i % 16
}

impl Owners {
    pub fn set(&mut self, card: Card, seat: Seat, sluffed: bool) {
        let i = dense(card);
        let nibble = seat & 7 | u8::from(sluffed) << 3;
        let shift = (i % 2) * 4;
        self.0[i / 2] = self.0[i / 2] & !(0xF << shift) | nibble << shift;
    }

    /// Exchanges the owner nibbles of two cards.
    pub fn swap(&mut self, a: Card, b: Card) {
        let (na, nb) = (self.nibble(a), self.nibble(b));
        self.set(a, nb & 7, nb & 8 != 0);
        self.set(b, na & 7, na & 8 != 0);
    }

    fn nibble(&self, card: Card) -> u8 {
        let i = dense(card);
        self.0[i / 2] >> ((i % 2) * 4) & 0xF
    }

    pub fn seat(&self, card: Card) -> Seat {
        self.nibble(card) & 7
    }

    pub fn sluffed(&self, card: Card) -> bool {
        self.nibble(card) & 8 != 0
    }
}

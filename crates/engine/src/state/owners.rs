//! Who owns each card that lies on the table or in a phase-one pile.

use crate::{Card, CardSet, Seat};

/// Who owns each card that lies on the table or in a phase-one pile, as four
/// bit planes over the card indices (the same layout as a [`CardSet`]): the
/// three bits of the owner's seat, and whether the card was sluffed.
///
/// Planes rather than a field per card because the engine mostly assigns one
/// owner to a whole set of cards (a play, a trick into a pile) and asks for
/// the cards of one owner (piles back into hands): both are a few word
/// operations whatever the number of cards, with no loop over the cards.
/// Cards that are neither on the table nor in a pile keep stale bits; every
/// reader masks with the cards it asks about.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub(crate) struct Owners {
    /// Bit `i` of the seat of each card, for `i` in 0..3.
    seat: [u64; 3],
    sluffed: u64,
}

/// Every bit set where `on`, none where not.
#[inline]
fn fill(on: bool) -> u64 {
    u64::from(on).wrapping_neg()
}

impl Owners {
    /// Gives every card of `cards` to `seat`, sluffed or not.
    #[inline]
    pub fn set_all(&mut self, cards: CardSet, seat: Seat, sluffed: bool) {
        let bits = cards.bits();
        let put = |plane: u64, on: bool| if on { plane | bits } else { plane & !bits };
        self.seat[0] = put(self.seat[0], seat & 1 != 0);
        self.seat[1] = put(self.seat[1], seat & 2 != 0);
        self.seat[2] = put(self.seat[2], seat & 4 != 0);
        self.sluffed = put(self.sluffed, sluffed);
    }

    #[inline]
    pub fn set(&mut self, card: Card, seat: Seat, sluffed: bool) {
        self.set_all(CardSet::single(card), seat, sluffed);
    }

    /// Exchanges the owners of two cards.
    pub fn swap(&mut self, a: Card, b: Card) {
        let (seat_a, sluffed_a) = (self.seat(a), self.sluffed(a));
        self.set(a, self.seat(b), self.sluffed(b));
        self.set(b, seat_a, sluffed_a);
    }

    #[inline]
    pub fn seat(&self, card: Card) -> Seat {
        let i = card.index();
        let bit = |plane: u64| (plane >> i & 1) as Seat;
        bit(self.seat[0]) | bit(self.seat[1]) << 1 | bit(self.seat[2]) << 2
    }

    #[inline]
    pub fn sluffed(&self, card: Card) -> bool {
        self.sluffed >> card.index() & 1 == 1
    }

    /// The cards of `among` that `seat` owns.
    #[inline]
    pub fn of_seat(&self, seat: Seat, among: CardSet) -> CardSet {
        let mut bits = among.bits();
        for (i, plane) in self.seat.iter().enumerate() {
            bits &= plane ^ fill(seat >> i & 1 == 0);
        }
        CardSet::from_bits(bits)
    }

    /// The cards of `among` that were sluffed.
    #[inline]
    pub fn sluffed_of(&self, among: CardSet) -> CardSet {
        CardSet::from_bits(among.bits() & self.sluffed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn planes_keep_each_cards_owner() {
        let mut owners = Owners::default();
        let cards: Vec<Card> = Card::all().collect();
        for (i, &card) in cards.iter().enumerate() {
            owners.set(card, (i % 8) as Seat, i % 3 == 0);
        }
        for (i, &card) in cards.iter().enumerate() {
            assert_eq!(owners.seat(card), (i % 8) as Seat);
            assert_eq!(owners.sluffed(card), i % 3 == 0);
        }
        let all = CardSet::FULL;
        for seat in 0..8 {
            let expected: CardSet = cards
                .iter()
                .enumerate()
                .filter(|(i, _)| i % 8 == seat as usize)
                .map(|(_, &c)| c)
                .collect();
            assert_eq!(owners.of_seat(seat, all), expected);
        }
        owners.set_all(all, 5, false);
        assert_eq!(owners.of_seat(5, all), all);
        assert!(owners.sluffed_of(all).is_empty());
        owners.swap(cards[0], cards[1]);
        assert_eq!(owners.seat(cards[0]), 5);
    }
}

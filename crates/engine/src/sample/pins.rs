//! What the public history has revealed about each card, and so which
//! exchanges of two cards keep a rebuilt state consistent with it.

use rand::{Rng, RngCore};

use crate::known::Known;
use crate::{Card, CardSet, Seat, State};

/// How much of a card the public history shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Pin {
    /// Never shown: any other unshown card could have been in its place.
    Free,
    /// Shown where it is (played, picked up, turned up): it stays put.
    Public,
    /// The trump card once turned: its suit is public but the view does not
    /// show which card it is, so any unshown card of that suit may stand in.
    Trump,
    /// One of the cards of the n-th public shuffle: its set is public, not
    /// who got it, so it may trade places with the shuffle's other cards.
    Shuffled(u8),
}

/// A rebuilt state with the pin of every card, changed only by exchanges
/// the pins allow, and its known cards, kept in step with every exchange.
#[derive(Clone, Debug)]
pub(super) struct Pinned {
    pub state: State,
    pins: [Pin; 64],
    pub known: Known,
}

impl Pinned {
    pub fn new(state: State) -> Pinned {
        Pinned {
            state,
            pins: [Pin::Free; 64],
            known: Known::new(&state),
        }
    }

    pub fn pin(&mut self, cards: CardSet, pin: Pin) {
        for card in cards {
            self.pins[card.index() as usize] = pin;
        }
    }

    pub fn pin_of(&self, card: Card) -> Pin {
        self.pins[card.index() as usize]
    }

    /// Whether `a` and `b` may trade places without contradicting the history.
    pub fn can_swap(&self, a: Card, b: Card) -> bool {
        match (self.pin_of(a), self.pin_of(b)) {
            (Pin::Public, _) | (_, Pin::Public) => false,
            (Pin::Free, Pin::Free) => true,
            (Pin::Shuffled(i), Pin::Shuffled(j)) => i == j,
            (Pin::Trump, Pin::Free) | (Pin::Free, Pin::Trump) => a.suit() == b.suit(),
            _ => false,
        }
    }

    /// Exchanges two cards; each takes over the other's place in the
    /// history and in the known cards.
    pub fn swap(&mut self, a: Card, b: Card) {
        self.state.swap_cards(a, b);
        self.known.swap_cards(a, b);
        self.pins.swap(a.index() as usize, b.index() as usize);
    }

    /// A random card of `among` that may trade places with `card`.
    fn partner(&self, card: Card, among: CardSet, rng: &mut dyn RngCore) -> Option<Card> {
        let fits: CardSet = among.iter().filter(|&x| self.can_swap(card, x)).collect();
        if fits.is_empty() {
            return None;
        }
        fits.nth(rng.random_range(0..fits.len()))
    }

    /// Makes `seat` hold `cards`, trading each missing one for an unshown
    /// card of the hand that is not among them.
    pub fn ensure_held(&mut self, seat: Seat, cards: CardSet, rng: &mut dyn RngCore) -> Option<()> {
        for card in cards - self.state.hand(seat) {
            let spare = self.state.hand(seat) - cards;
            let x = self.partner(card, spare, rng)?;
            self.swap(card, x);
        }
        Some(())
    }

    /// Moves `cards` out of `seat`'s hand, each traded for an unshown card
    /// elsewhere outside `keep_out` (the kind the seat cannot have held).
    pub fn evict(
        &mut self,
        seat: Seat,
        cards: CardSet,
        keep_out: CardSet,
        rng: &mut dyn RngCore,
    ) -> Option<()> {
        for card in cards {
            let elsewhere = CardSet::FULL - self.state.hand(seat) - keep_out;
            let x = self.partner(card, elsewhere, rng)?;
            self.swap(card, x);
        }
        Some(())
    }

    /// Makes `seat`'s hand exactly `hand`, trading cards with the rest.
    pub fn settle_hand(&mut self, seat: Seat, hand: CardSet, rng: &mut dyn RngCore) -> Option<()> {
        // Cards whose pin limits their partners go first.
        let missing = hand - self.state.hand(seat);
        let (strict, loose): (Vec<Card>, Vec<Card>) =
            missing.iter().partition(|&c| self.pin_of(c) != Pin::Free);
        for card in strict.into_iter().chain(loose) {
            let extra = self.state.hand(seat) - hand;
            let x = self.partner(card, extra, rng)?;
            self.swap(card, x);
        }
        (self.state.hand(seat) == hand).then_some(())
    }

    /// Trades the face-down trump card `card` for an unshown card of the
    /// public trump suit, before the move that turns it is replayed.
    pub fn retarget_trump(
        &mut self,
        card: Card,
        among: CardSet,
        rng: &mut dyn RngCore,
    ) -> Option<()> {
        let x = self.partner(card, among, rng)?;
        self.swap(card, x);
        Some(())
    }
}

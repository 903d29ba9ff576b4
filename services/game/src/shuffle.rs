//! A game's shuffles come from `skit-fairness` (docs/fairness.md): one
//! pinned algorithm shared by the service, `skit verify` and anyone checking
//! a revealed seed. This adapter gives the service its two questions: the
//! deal (deck and dealer) and the k-th later chance outcome.

use skit_engine::{Card, CardSet, Seat};

pub use skit_fairness::Seed;

/// The shuffles a game's seed decides.
pub trait Shuffles {
    /// The dealer (as given, or drawn from the seed) and the deck.
    fn deal(&self, players: u8, dealer: Option<Seat>) -> (Seat, Vec<Card>);
    /// The order of the awaited cards for chance event `k` (the deal is 0).
    fn outcome(&self, k: u64, cards: CardSet) -> Vec<Card>;
}

impl Shuffles for Seed {
    fn deal(&self, players: u8, dealer: Option<Seat>) -> (Seat, Vec<Card>) {
        let deck = skit_fairness::deck(self);
        let dealer = dealer.unwrap_or_else(|| skit_fairness::dealer(self, players));
        (dealer, deck)
    }

    fn outcome(&self, k: u64, cards: CardSet) -> Vec<Card> {
        skit_fairness::outcome(self, k, cards)
    }
}

//! Exchanging two cards wherever they lie: the tool for determinization. A
//! search bot replays the public history on a sampled deck and repairs it by
//! swapping cards nobody has seen, so it never needs the true hidden state.

use super::State;
use crate::{Card, CardSet};

pub(crate) fn swap_bits(set: CardSet, a: Card, b: Card) -> CardSet {
    let (has_a, has_b) = (set.contains(a), set.contains(b));
    let mut out = set;
    out.remove(a);
    out.remove(b);
    if has_a {
        out.insert(b);
    }
    if has_b {
        out.insert(a);
    }
    out
}

impl State {
    /// Exchanges cards `a` and `b` everywhere (hands, piles, stock, reserve,
    /// table, the trump card), keeping everything else as it is.
    pub fn swap_cards(&mut self, a: Card, b: Card) {
        if a == b {
            return;
        }
        let swap = |c: Card| {
            if c == a {
                b
            } else if c == b {
                a
            } else {
                c
            }
        };
        for hand in &mut self.hands {
            *hand = swap_bits(*hand, a, b);
        }
        self.aside = swap_bits(self.aside, a, b);
        self.gone = swap_bits(self.gone, a, b);
        self.owners.swap(a, b);
        self.piles.map_cards(swap);
        self.table.map_cards(swap);
        self.trump_card = self.trump_card.map(swap);
    }
}

#[cfg(test)]
mod tests {
    use crate::{Card, Preset, Ruleset, State};

    #[test]
    fn swapping_twice_restores_and_conserves() {
        let rules = Ruleset::preset(Preset::Skitgubbe);
        let deck: Vec<Card> = Card::all().collect();
        let mut state = State::deal(&rules, 3, 0, &deck).expect("deal");
        for _ in 0..7 {
            let mv = state.legal_moves(&rules)[0];
            state.play(&rules, mv).expect("legal");
        }
        let before = state;
        let (a, b) = (deck[0], deck[40]); // a card in a hand or pile, one in the stock
        state.swap_cards(a, b);
        assert_ne!(state, before);
        let all = state
            .cards_everywhere()
            .iter()
            .fold(crate::CardSet::EMPTY, |u, &s| u | s);
        assert_eq!(all, crate::CardSet::FULL);
        state.swap_cards(a, b);
        assert_eq!(state, before);
    }
}

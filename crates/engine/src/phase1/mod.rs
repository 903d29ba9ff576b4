//! Phase one, collecting: what all its modes share (drawing, chance, the end
//! of the phase), and dispatch to the mode's own trick rules.

mod pairs;

use crate::rules::{Phase1Mode, Ruleset};
use crate::state::State;
use crate::{Card, CardSet, Seat};

impl State {
    /// Starts a trick led by `leader` (or the first seat after it that may lead).
    pub(crate) fn begin_trick(&mut self, rules: &Ruleset, leader: Seat) {
        match rules.options.mode {
            Phase1Mode::Pairs | Phase1Mode::TurnedTrump => self.begin_pair(rules, leader),
            Phase1Mode::All => self.begin_pair(rules, leader),
        }
    }

    /// Whether chance may be played now (SPEC 3.1: two or more cards in the stock).
    pub(crate) fn chance_allowed(&self, rules: &Ruleset) -> bool {
        rules.options.chance
            && rules.options.mode != Phase1Mode::TurnedTrump
            && self.piles.stock_len() >= 2
    }

    /// Whether `seat` could act if due: a card in hand, or chance.
    pub(crate) fn can_play(&self, rules: &Ruleset, seat: Seat) -> bool {
        !self.hands[seat as usize].is_empty() || self.chance_allowed(rules)
    }

    /// Draws one card after a play from the hand. The stock's last card is the
    /// trump card: kept face down, unseen, and out of the hand (SPEC 3.1).
    pub(crate) fn draw_one(&mut self, rules: &Ruleset, seat: Seat) {
        let Some(card) = self.piles.draw_stock() else {
            return;
        };
        if self.piles.stock_len() == 0 {
            self.trump_holder = seat;
            if rules.options.mode != Phase1Mode::TurnedTrump {
                self.trump_card = Some(card);
                self.flags |= crate::state::flag::TRUMP_APART;
                return;
            }
        }
        self.hands[seat as usize].insert(card);
    }

    /// Puts cards from `seat`'s hand on the table as one play.
    pub(crate) fn lay_from_hand(&mut self, seat: Seat, cards: CardSet, sluffed: bool) {
        self.hands[seat as usize] = self.hands[seat as usize] - cards;
        self.lay(seat, cards, sluffed);
    }

    pub(crate) fn lay(&mut self, seat: Seat, cards: CardSet, sluffed: bool) {
        for card in cards {
            self.owners.set(card, seat, sluffed);
        }
        self.table.push(cards);
    }

    /// Turns up the stock's top card and plays it for `seat`.
    pub(crate) fn chance(&mut self, seat: Seat) -> Option<Card> {
        let card = self.piles.draw_stock()?;
        self.lay(seat, CardSet::single(card), false);
        Some(card)
    }

    /// `seat`'s latest play on the table (sluffs do not count).
    pub(crate) fn latest_play(&self, seat: Seat) -> Option<CardSet> {
        let cards = self.table.cards();
        self.table
            .group_ranges()
            .rev()
            .find(|r| {
                let first = cards[r.start];
                self.owners.seat(first) == seat && !self.owners.sluffed(first)
            })
            .map(|r| self.table.group(r))
    }

    /// The end of phase one with the trick in whatever state it is.
    pub(crate) fn end_phase_one(&mut self, rules: &Ruleset) {
        self.turn = crate::state::NONE;
        self.take_back_or_deal(rules);
    }
}

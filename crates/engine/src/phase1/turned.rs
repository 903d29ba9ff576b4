//! The turned-up trump (SPEC 5.4, 8.6; `mas`, `melniki`): beat or pick up,
//! must follow, robbing with the two and banking three trumps.

use crate::rules::Ruleset;
use crate::state::{State, flag};
use crate::{Card, CardSet, Rank, Seat};

impl State {
    /// The card led to the trick on the table.
    pub(crate) fn led_card(&self) -> Option<Card> {
        self.latest_play(self.leader).and_then(|p| p.first())
    }

    /// Whether `card` beats `led`: higher of its suit, or a trump on a non-trump.
    fn beats_led(&self, card: Card, led: Card) -> bool {
        if card.suit() == led.suit() {
            return card.rank() > led.rank();
        }
        Some(card.suit()) == self.trump && Some(led.suit()) != self.trump
    }

    /// The second's plays and whether it may pick up.
    pub(crate) fn second_options(&self, rules: &Ruleset, hand: CardSet) -> (CardSet, bool) {
        let Some(led) = self.led_card() else {
            return (hand, false);
        };
        let trumps = self.trump.map(CardSet::suit).unwrap_or_default();
        if rules.options.must_follow {
            let follow = hand & CardSet::suit(led.suit());
            if !follow.is_empty() {
                return (follow, false);
            }
            let ruff = if trumps.contains(led) {
                CardSet::EMPTY
            } else {
                hand & trumps
            };
            return (ruff, true);
        }
        (
            hand.iter().filter(|&c| self.beats_led(c, led)).collect(),
            true,
        )
    }

    pub(crate) fn after_turned_play(&mut self, rules: &Ruleset, seat: Seat) {
        if seat == self.leader {
            self.turn = self.second;
            return;
        }
        let (Some(led), Some(answer)) = (
            self.led_card(),
            self.latest_play(seat).and_then(|p| p.first()),
        ) else {
            return;
        };
        let winner = if self.beats_led(answer, led) {
            self.second
        } else {
            self.leader
        };
        self.take_trick(rules, winner);
    }

    /// The second picks up the led card (no draw); the picker's left leads.
    pub(crate) fn pickup_led(&mut self, rules: &Ruleset, seat: Seat) {
        self.hands[seat as usize] |= self.table.set();
        self.table.clear();
        if self.stock_out_ends_phase(rules) {
            return self.end_phase_one(rules);
        }
        let next = self.left(seat);
        self.begin_trick(rules, next);
    }

    fn two_of_trumps(&self) -> Option<Card> {
        self.trump.map(|t| Card::new(Rank::TWO, t))
    }

    /// Whether `seat` may rob: holds the two of trumps while the card turned
    /// at the deal (not itself the two) still lies under the stock.
    pub(crate) fn may_rob(&self, rules: &Ruleset, seat: Seat) -> bool {
        rules.options.rob
            && self.flags & flag::ROBBED == 0
            && self.piles.stock_len() > 0
            && self.piles.stock_bottom() == self.trump_card
            && self.two_of_trumps().is_some_and(|two| {
                Some(two) != self.trump_card && self.hands[seat as usize].contains(two)
            })
    }

    /// Whether `seat` may bank: exactly three cards, all trumps, and a stock.
    pub(crate) fn may_bank(&self, rules: &Ruleset, seat: Seat) -> bool {
        let hand = self.hands[seat as usize];
        rules.options.bank
            && hand.len() == 3
            && self.trump.is_some_and(|t| hand.is_subset(CardSet::suit(t)))
            && self.piles.stock_len() > 0
    }

    pub(crate) fn rob(&mut self, seat: Seat) {
        let (Some(two), Some(turned)) = (self.two_of_trumps(), self.piles.stock_bottom()) else {
            return;
        };
        let hand = &mut self.hands[seat as usize];
        hand.remove(two);
        hand.insert(turned);
        self.piles.set_stock_bottom(two);
        self.flags |= flag::ROBBED;
    }

    pub(crate) fn bank(&mut self, rules: &Ruleset, seat: Seat) {
        let cards = self.hands[seat as usize];
        self.hands[seat as usize] = CardSet::EMPTY;
        self.add_to_pile(seat, cards);
        self.draw_up(rules, seat);
        if self.table.is_empty() && self.stock_out_ends_phase(rules) {
            self.end_phase_one(rules);
        }
    }
}

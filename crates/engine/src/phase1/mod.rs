//! Phase one, collecting: what all its modes share (drawing, chance, deciding
//! and taking a trick, the end of the phase), and dispatch to each mode.

mod allplay;
mod pairs;
mod sluff;
mod turned;

use crate::rules::{Phase1End, Phase1Mode, Ruleset};
use crate::state::{NONE, State, flag};
use crate::{Card, CardSet, Move, MoveKind, Seat};

impl State {
    /// Starts a trick led by `leader` (or the first seat after it that may lead).
    pub(crate) fn begin_trick(&mut self, rules: &Ruleset, leader: Seat) {
        self.flags &= !(flag::DECIDED | flag::REPLAY);
        self.winner = NONE;
        self.window = crate::SeatSet::EMPTY;
        match rules.options.mode {
            Phase1Mode::Pairs | Phase1Mode::TurnedTrump => self.begin_pair(rules, leader),
            Phase1Mode::All => self.begin_all(rules, leader),
        }
    }

    /// Applies a phase-one move that has passed its check.
    pub(crate) fn play_phase_one(&mut self, rules: &Ruleset, mv: Move) {
        let seat = mv.seat;
        match mv.kind {
            MoveKind::Play(cards) => {
                self.lay_from_hand(seat, cards, false);
                self.draw_up(rules, seat);
                self.after_play(rules, seat);
            }
            MoveKind::Chance => {
                if let Some(card) = self.piles.draw_stock() {
                    self.lay(seat, CardSet::single(card), false);
                }
                self.after_play(rules, seat);
            }
            MoveKind::Pickup => self.pickup_led(rules, seat),
            MoveKind::Sluff(cards) => self.sluff(rules, seat, cards),
            MoveKind::Pass => self.pass(rules, seat),
            MoveKind::Claim => self.take_trick(rules, self.winner),
            MoveKind::Rob => self.rob(seat),
            MoveKind::Bank => self.bank(rules, seat),
        }
    }

    #[inline]
    fn after_play(&mut self, rules: &Ruleset, seat: Seat) {
        match rules.options.mode {
            Phase1Mode::Pairs => self.after_pair_play(rules, seat),
            Phase1Mode::All => self.after_all_play(rules, seat),
            Phase1Mode::TurnedTrump => self.after_turned_play(rules, seat),
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

    /// Draws back up to three, card by card. The stock's last card is the
    /// trump card: kept face down, unseen, out of the hand (SPEC 3.1); with a
    /// turned-up trump it is taken face up.
    #[inline]
    pub(crate) fn draw_up(&mut self, rules: &Ruleset, seat: Seat) {
        while self.hands[seat as usize].len() < 3 {
            let Some(card) = self.piles.draw_stock() else {
                return;
            };
            if self.piles.stock_len() == 0 {
                self.trump_holder = seat;
                if rules.options.mode != Phase1Mode::TurnedTrump {
                    self.trump_card = Some(card);
                    self.flags |= flag::TRUMP_APART;
                    return;
                }
            }
            self.hands[seat as usize].insert(card);
        }
    }

    /// Puts cards from `seat`'s hand on the table as one play or sluff.
    #[inline(always)]
    pub(crate) fn lay_from_hand(&mut self, seat: Seat, cards: CardSet, sluffed: bool) {
        self.hands[seat as usize] = self.hands[seat as usize] - cards;
        self.lay(seat, cards, sluffed);
    }

    #[inline(always)]
    pub(crate) fn lay(&mut self, seat: Seat, cards: CardSet, sluffed: bool) {
        self.owners.set_all(cards, seat, sluffed);
        self.table.push(cards);
    }

    /// `seat`'s latest play on the table (sluffs do not count).
    pub(crate) fn latest_play(&self, seat: Seat) -> Option<CardSet> {
        let cards = self.table.cards();
        let mut end = cards.len();
        for start in self.table.starts_newest_first() {
            let first = *cards.get(start)?;
            if self.owners.seat(first) == seat && !self.owners.sluffed(first) {
                return Some(self.table.group(start..end));
            }
            end = start;
        }
        None
    }

    /// The rank of `seat`'s latest play.
    pub(crate) fn latest_rank(&self, seat: Seat) -> Option<crate::Rank> {
        self.latest_play(seat)
            .and_then(|p| p.first())
            .map(Card::rank)
    }

    /// The cards played (not sluffed) on the table.
    pub(crate) fn played_cards(&self) -> CardSet {
        let table = self.table.set();
        table - self.owners.sluffed_of(table)
    }

    /// The trick is decided: open the sluffing window or claim the ruleset
    /// has, or let the winner take it at once.
    pub(crate) fn decide(&mut self, rules: &Ruleset, winner: Seat) {
        if !self.open_window(rules, winner) {
            self.take_trick(rules, winner);
        }
    }

    /// The winner takes every card on the table; the next trick or the end.
    pub(crate) fn take_trick(&mut self, rules: &Ruleset, winner: Seat) {
        let cards: CardSet = self.table.set();
        self.add_to_pile(winner, cards);
        self.table.clear();
        self.flags &= !flag::DECIDED;
        self.window = crate::SeatSet::EMPTY;
        self.winner = NONE;
        if self.stock_out_ends_phase(rules) {
            return self.end_phase_one(rules);
        }
        self.begin_trick(rules, winner);
    }

    /// `phase1.end: stock_empty` and the turned-up trump end phase one when the
    /// trick in which the stock's last card was drawn is over.
    pub(crate) fn stock_out_ends_phase(&self, rules: &Ruleset) -> bool {
        let o = &rules.options;
        let stock_out = self.piles.stock_len() == 0 && self.trump_holder().is_some();
        stock_out && (o.end == Phase1End::StockEmpty || o.mode == Phase1Mode::TurnedTrump)
    }

    /// The end of phase one with the trick in whatever state it is.
    pub(crate) fn end_phase_one(&mut self, rules: &Ruleset) {
        self.turn = NONE;
        self.window = crate::SeatSet::EMPTY;
        self.flags &= !(flag::DECIDED | flag::REPLAY);
        self.take_back_or_deal(rules);
    }
}

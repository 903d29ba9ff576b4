//! Two-card tricks (SPEC 3.1, `phase1.skip_empty`), shared with the turned-up
//! trump mode for who leads and who is second.

use crate::rules::{Phase1End, Phase1Mode, Ruleset};
use crate::state::State;
use crate::{CardSet, Seat};

impl State {
    pub(crate) fn begin_pair(&mut self, rules: &Ruleset, winner: Seat) {
        let o = &rules.options;
        if o.skip_empty {
            let holding = self.seats_with_cards();
            if holding.len() < 2 {
                return self.end_phase_one(rules);
            }
            let leader = holding.next_from(winner, self.n).unwrap_or(winner);
            self.leader = leader;
            self.second = self.next_in(holding, leader).unwrap_or(leader);
        } else {
            self.leader = winner;
            self.second = self.left(winner);
        }
        self.turn = self.leader;
        self.check_due(rules);
    }

    /// SPEC 3.1: phase one ends the moment the seat due has no card and no chance.
    pub(crate) fn check_due(&mut self, rules: &Ruleset) {
        if !self.can_play(rules, self.turn) {
            self.end_phase_one(rules);
        }
    }

    /// After `seat`'s play to a two-card trick.
    pub(crate) fn after_pair_play(&mut self, rules: &Ruleset, seat: Seat) {
        if seat == self.leader {
            self.turn = self.second;
            return self.check_due(rules);
        }
        let lead = self.latest_play(self.leader).and_then(|p| p.first());
        let answer = self.latest_play(self.second).and_then(|p| p.first());
        let (Some(lead), Some(answer)) = (lead, answer) else {
            return;
        };
        if lead.rank() == answer.rank() {
            // Bounce: the same pair plays again.
            self.turn = self.leader;
            return self.check_due(rules);
        }
        let winner = if answer.rank() > lead.rank() {
            self.second
        } else {
            self.leader
        };
        self.take_trick(rules, winner);
    }

    /// The winner takes every card on the table; the next trick or the end.
    pub(crate) fn take_trick(&mut self, rules: &Ruleset, winner: Seat) {
        let cards: CardSet = self.table.set();
        self.add_to_pile(winner, cards);
        self.table.clear();
        let o = &rules.options;
        let stock_out = self.piles.stock_len() == 0 && self.trump_holder().is_some();
        if stock_out && (o.end == Phase1End::StockEmpty || o.mode == Phase1Mode::TurnedTrump) {
            return self.end_phase_one(rules);
        }
        self.begin_trick(rules, winner);
    }
}

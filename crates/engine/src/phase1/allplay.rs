//! All-play tricks (SPEC 5.1, 8.3): every player plays, ties are replayed by
//! the tied players or taken back, and a tied player who cannot play again
//! ends phase one or has the trick split.

use crate::rules::{Ruleset, TieRunout, Ties};
use crate::state::{Awaiting, NONE, State, flag};
use crate::{Card, CardSet, Rank, Seat, SeatSet};

/// How a round came out.
enum Round {
    Won(Seat),
    Tied(SeatSet),
}

impl State {
    pub(crate) fn begin_all(&mut self, rules: &Ruleset, leader: Seat) {
        let mut players = SeatSet::first(self.n);
        let mut leader = leader;
        if rules.options.skip_empty {
            players = self.seats_with_cards();
            if players.len() < 2 {
                return self.end_phase_one(rules);
            }
            leader = players.next_from(leader, self.n).unwrap_or(leader);
        }
        self.leader = leader;
        self.round = players;
        self.round_done = SeatSet::EMPTY;
        self.advance_round(rules);
    }

    /// The seats of the current round in play order: clockwise from the leader.
    pub(crate) fn round_order(&self, seats: SeatSet) -> impl Iterator<Item = Seat> + '_ {
        (0..self.n)
            .map(move |i| (self.leader + i) % self.n)
            .filter(move |&s| seats.contains(s))
    }

    /// Finds the next seat due in the round, skipping or ending as the rules say.
    pub(crate) fn advance_round(&mut self, rules: &Ruleset) {
        loop {
            let pending = self.round.minus(self.round_done);
            let Some(due) = self.round_order(pending).next() else {
                self.turn = NONE;
                return self.finish_round(rules);
            };
            if self.can_play(rules, due) {
                self.turn = due;
                return;
            }
            let replay = self.flags & flag::REPLAY != 0;
            if !replay && rules.options.skip_empty && self.hands[due as usize].is_empty() {
                self.round.remove(due); // skipped in the first round; tied players never are
                continue;
            }
            if replay && rules.options.tie_runout == TieRunout::Split {
                self.turn = NONE;
                self.awaiting = Awaiting::Split;
                return;
            }
            return self.end_phase_one(rules);
        }
    }

    pub(crate) fn after_all_play(&mut self, rules: &Ruleset, seat: Seat) {
        self.round_done.insert(seat);
        self.advance_round(rules);
    }

    /// The latest round's plays decide (`phase1.tied_beats_unique` within it).
    fn judge_round(&self, rules: &Ruleset) -> Round {
        let mut by_rank = [SeatSet::EMPTY; 15];
        for seat in self.round.iter() {
            if let Some(rank) = self.latest_rank(seat) {
                by_rank[rank.value() as usize].insert(seat);
            }
        }
        let tied_rank = (2..15).rev().find(|&r| by_rank[r].len() >= 2);
        let top = (2..15).rev().find(|&r| !by_rank[r].is_empty()).unwrap_or(2);
        let heading = match tied_rank {
            Some(r) if rules.options.tied_beats_unique => r,
            _ => top,
        };
        let seats = by_rank[heading];
        match seats.iter().next() {
            Some(seat) if seats.len() == 1 => Round::Won(seat),
            _ => Round::Tied(seats),
        }
    }

    fn finish_round(&mut self, rules: &Ruleset) {
        match self.judge_round(rules) {
            Round::Won(winner) => self.decide(rules, winner),
            Round::Tied(tied) => {
                let tied_cards = tied
                    .iter()
                    .filter_map(|s| self.latest_play(s))
                    .fold(CardSet::EMPTY, |a, p| a | p);
                let all_tied = self.table.set() == tied_cards;
                if rules.options.ties == Ties::TakeBack && !all_tied {
                    self.take_back_tie(rules, tied, tied_cards);
                } else {
                    self.flags |= flag::REPLAY;
                    self.round = tied;
                    self.round_done = SeatSet::EMPTY;
                    self.advance_round(rules);
                }
            }
        }
    }

    /// `ties: take_back`: the tied players take their tied cards back; the
    /// rest go ascending to their piles from the last tied player counterclockwise.
    fn take_back_tie(&mut self, rules: &Ruleset, tied: SeatSet, tied_cards: CardSet) {
        self.return_to_owners(tied_cards);
        let order: arrayvec::ArrayVec<Seat, 8> = self.round_order(tied).collect();
        let others = self.table.set() - tied_cards;
        for (i, card) in others.ascending().enumerate() {
            let seat = order[order.len() - 1 - i % order.len()];
            self.add_to_pile(seat, CardSet::single(card));
        }
        self.table.clear();
        if self.stock_out_ends_phase(rules) {
            return self.end_phase_one(rules);
        }
        let leader = self.leader;
        self.begin_trick(rules, leader);
    }

    /// The awaited split: card i to the pile of tied player i mod t.
    pub(crate) fn split(&mut self, rules: &Ruleset, order: &[Card]) {
        let tied: arrayvec::ArrayVec<Seat, 8> = self.round_order(self.round).collect();
        for (i, &card) in order.iter().enumerate() {
            self.add_to_pile(tied[i % tied.len()], CardSet::single(card));
        }
        self.table.clear();
        self.awaiting = Awaiting::Nothing;
        self.flags &= !flag::REPLAY;
        let o = &rules.options;
        let holding = self.seats_with_cards();
        if (o.skip_empty && holding.len() < 2) || self.stock_out_ends_phase(rules) {
            return self.end_phase_one(rules);
        }
        let first = tied[0];
        let leader = if holding.contains(first) {
            Some(first)
        } else if o.skip_empty {
            holding.next_from(first, self.n)
        } else {
            None
        };
        match leader {
            Some(leader) => self.begin_trick(rules, leader),
            None => self.end_phase_one(rules),
        }
    }

    /// `phase1.compulsory_ties`: the rank `seat` must play now, if any (SPEC 8.3).
    pub(crate) fn compulsory_rank(&self, rules: &Ruleset, seat: Seat) -> Option<Rank> {
        if !rules.options.compulsory_ties || self.round_done.is_empty() {
            return None;
        }
        let mut count = [0u8; 15];
        for s in self.round_done.iter() {
            if let Some(rank) = self.latest_rank(s) {
                count[rank.value() as usize] += 1;
            }
        }
        let held = self.hands[seat as usize].rank_mask();
        let holds = |r: usize| held >> (r - 2) & 1 == 1;
        if rules.options.tied_beats_unique {
            let floor = (2..15).rev().find(|&r| count[r] >= 2).unwrap_or(2);
            (floor..15)
                .rev()
                .find(|&r| count[r] > 0 && holds(r))
                .and_then(|r| Rank::new(r as u8))
        } else {
            let top = (2..15).rev().find(|&r| count[r] > 0)?;
            holds(top).then(|| Rank::new(top as u8)).flatten()
        }
    }
}

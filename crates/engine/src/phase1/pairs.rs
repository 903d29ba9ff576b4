//! Two-card tricks (SPEC 3.1, `phase1.skip_empty`), shared with the turned-up
//! trump mode for who leads and who is second.

use crate::rules::{Ruleset, Sluff};
use crate::state::State;
use crate::{Rank, Seat};

impl State {
    pub(crate) fn begin_pair(&mut self, rules: &Ruleset, winner: Seat) {
        if rules.options.skip_empty {
            let holding = self.seats_with_cards();
            if holding.len() < 2 {
                return self.end_phase_one(rules);
            }
            let leader = holding.next_from(winner, self.n).unwrap_or(winner);
            self.leader = leader;
            self.second = self.next_holder_after(leader).unwrap_or(leader);
        } else {
            self.leader = winner;
            self.second = self.left(winner);
        }
        self.turn = self.leader;
        self.check_due(rules);
    }

    /// The next seat clockwise after `seat` that holds cards (`skip_empty`'s
    /// second), if any other seat does.
    fn next_holder_after(&self, seat: Seat) -> Option<Seat> {
        let mut holding = self.seats_with_cards();
        holding.remove(seat);
        self.next_in(holding, seat)
    }

    /// A second emptied by sluffing before its answer gives way to the next
    /// seat after the leader holding cards; with none, phase one ends.
    pub(crate) fn reseat_second(&mut self, rules: &Ruleset) {
        match self.next_holder_after(self.leader) {
            Some(second) => {
                self.second = second;
                self.turn = second;
            }
            None => self.end_phase_one(rules),
        }
    }

    /// SPEC 3.1: phase one ends the moment the seat due has no card and no chance.
    #[inline]
    pub(crate) fn check_due(&mut self, rules: &Ruleset) {
        if !self.can_play(rules, self.turn) {
            self.end_phase_one(rules);
        }
    }

    /// The ranks of the leader's latest play and of `seat`'s answer to it.
    /// Without sluffing the table holds only the pair's plays, alternating,
    /// so the two are its last two plays and need no search by owner.
    fn pair_ranks(&self, rules: &Ruleset, seat: Seat) -> (Option<Rank>, Option<Rank>) {
        if rules.options.sluff == Sluff::None {
            return match self.table.last_two_firsts() {
                Some((lead, answer)) => (Some(lead.rank()), Some(answer.rank())),
                None => (None, None),
            };
        }
        (self.latest_rank(self.leader), self.latest_rank(seat))
    }

    /// After `seat`'s play to a two-card trick.
    pub(crate) fn after_pair_play(&mut self, rules: &Ruleset, seat: Seat) {
        if seat == self.leader {
            self.turn = self.second;
            return self.check_due(rules);
        }
        let (Some(lead), Some(answer)) = self.pair_ranks(rules, seat) else {
            return;
        };
        if lead == answer {
            // Bounce: the same pair plays again.
            self.turn = self.leader;
            return self.check_due(rules);
        }
        let winner = if answer > lead {
            self.second
        } else {
            self.leader
        };
        self.decide(rules, winner);
    }
}

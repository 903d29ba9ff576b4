//! Sluffing (SPEC 5.1 `phase1.sluff`, 8.4): adding cards to a trick, during
//! it or in a window once it is decided, and the winner's claim.

use crate::rules::{Phase1Mode, Ruleset, Sluff};
use crate::state::{NONE, State, flag};
use crate::{CardSet, Seat, SeatSet};

impl State {
    /// Seats that have played (not only sluffed) to the trick on the table.
    fn played_seats(&self) -> SeatSet {
        self.played_cards()
            .iter()
            .map(|c| self.owners.seat(c))
            .collect()
    }

    /// Opens the window or claim of a decided trick; false if there is none
    /// and the winner takes the trick at once.
    pub(crate) fn open_window(&mut self, rules: &Ruleset, winner: Seat) -> bool {
        let window = match rules.options.sluff {
            Sluff::None => return false,
            Sluff::Once | Sluff::LosingRanks => self.seats_with_cards(),
            Sluff::OwnRank => self.seats_with_cards().intersect(self.played_seats()),
            Sluff::Unlimited => SeatSet::EMPTY,
        };
        if window.is_empty() && rules.options.sluff != Sluff::Unlimited {
            return false;
        }
        self.flags |= flag::DECIDED;
        self.winner = winner;
        self.window = window;
        self.turn = if rules.options.sluff == Sluff::Unlimited {
            winner
        } else {
            NONE
        };
        true
    }

    /// The cards `seat` may sluff now (any non-empty subset of them). The
    /// test for a ruleset without sluffing is inlined into every caller.
    #[inline(always)]
    pub(crate) fn sluffable(&self, rules: &Ruleset, seat: Seat) -> CardSet {
        if rules.options.sluff == Sluff::None {
            return CardSet::EMPTY;
        }
        self.sluffable_in_ruleset(rules, seat)
    }

    #[inline(never)]
    fn sluffable_in_ruleset(&self, rules: &Ruleset, seat: Seat) -> CardSet {
        let hand = self.hands[seat as usize];
        let decided = self.flags & flag::DECIDED != 0;
        if self.table.is_empty() || hand.is_empty() {
            return CardSet::EMPTY;
        }
        match rules.options.sluff {
            Sluff::None => CardSet::EMPTY,
            Sluff::Once if decided && self.window.contains(seat) => {
                hand.with_ranks(self.table.set().rank_mask())
            }
            Sluff::LosingRanks if decided && self.window.contains(seat) => {
                let winning = self.latest_play(self.winner).unwrap_or_default();
                hand.with_ranks((self.played_cards() - winning).rank_mask())
            }
            Sluff::OwnRank if !decided || self.window.contains(seat) => {
                match self.latest_rank(seat) {
                    Some(rank) => hand & CardSet::rank(rank),
                    None => CardSet::EMPTY,
                }
            }
            Sluff::Unlimited => hand.with_ranks(self.table.set().rank_mask()),
            _ => CardSet::EMPTY,
        }
    }

    pub(crate) fn sluff(&mut self, rules: &Ruleset, seat: Seat, cards: CardSet) {
        self.lay_from_hand(seat, cards, true);
        self.draw_up(rules, seat);
        let decided = self.flags & flag::DECIDED != 0;
        match rules.options.sluff {
            Sluff::Once | Sluff::LosingRanks => self.pass(rules, seat),
            _ if !decided => self.recheck_due(rules),
            _ => {}
        }
    }

    /// A seat leaves the window; when every seat has acted the winner takes the trick.
    pub(crate) fn pass(&mut self, rules: &Ruleset, seat: Seat) {
        self.window.remove(seat);
        if self.window.is_empty() {
            self.take_trick(rules, self.winner);
        }
    }

    /// After an out-of-turn sluff drew cards, the seat due may no longer be
    /// able to act (chance needs two cards in the stock): SPEC 3.1's end rule.
    /// With `skip_empty` a seat is skipped instead (5.1): in all-play the
    /// round goes on; in a two-card trick a second emptied by sluffing
    /// before its answer gives way to the next seat holding cards, but the
    /// pair of a bounce cannot change.
    fn recheck_due(&mut self, rules: &Ruleset) {
        if self.turn == NONE || self.can_play(rules, self.turn) {
            return;
        }
        match rules.options.mode {
            Phase1Mode::All => self.advance_round(rules),
            _ if rules.options.skip_empty
                && self.turn == self.second
                && !self.played_seats().contains(self.second) =>
            {
                self.reseat_second(rules)
            }
            _ => self.end_phase_one(rules),
        }
    }
}

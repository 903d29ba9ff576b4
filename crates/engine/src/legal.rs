//! Listing legal actions, who may act, and uniform random moves, all read
//! off [`Choices`], the one description of what a seat may do.

use crate::choices::{Choices, MoveList, Shape, run, subsets};
use crate::rules::Ruleset;
use crate::state::{Awaiting, Phase, State};
use crate::{CardSet, Move, MoveKind, Seat, SeatSet};

impl State {
    /// Every seat with at least one legal action (SPEC 8.1).
    pub fn to_act(&self, rules: &Ruleset) -> SeatSet {
        (0..self.n)
            .filter(|&s| self.choices(rules, s).any())
            .collect()
    }

    /// The seats whose turn it is, as everyone may know it: the seat due, or
    /// the seats that must still act in a sluffing window (SPEC 8.1).
    pub fn public_to_act(&self) -> SeatSet {
        if self.phase == Phase::Over || self.awaiting != Awaiting::Nothing {
            return SeatSet::EMPTY;
        }
        let mut seats = self.window;
        if self.turn != crate::state::NONE {
            seats.insert(self.turn);
        }
        seats
    }

    /// Every legal action of every seat.
    pub fn legal_moves(&self, rules: &Ruleset) -> MoveList {
        let mut list = MoveList::new();
        self.legal_moves_into(rules, &mut list);
        list
    }

    /// Every legal action of every seat, into `list` (cleared first): the
    /// allocation-free form for search and benchmarks.
    pub fn legal_moves_into(&self, rules: &Ruleset, list: &mut MoveList) {
        list.clear();
        for seat in self.candidate_seats(rules).iter() {
            self.push_legal(rules, seat, list);
        }
    }

    /// `seat`'s legal actions.
    pub fn legal_moves_for(&self, rules: &Ruleset, seat: Seat) -> MoveList {
        let mut list = MoveList::new();
        self.push_legal(rules, seat, &mut list);
        list
    }

    fn push_legal(&self, rules: &Ruleset, seat: Seat, list: &mut MoveList) {
        let c = self.choices(rules, seat);
        let mut push = |kind| {
            let _ = list.try_push(Move::new(seat, kind));
        };
        let hand = self.hands[seat as usize];
        match c.shape {
            Shape::Single => c
                .plays
                .iter()
                .for_each(|card| push(MoveKind::Play(CardSet::single(card)))),
            Shape::SameRank(max) => {
                for rank in crate::Rank::all() {
                    subsets(c.plays & CardSet::rank(rank), u32::from(max), |s| {
                        push(MoveKind::Play(s))
                    });
                }
            }
            Shape::Runs { min, from_two } => {
                for low in c.plays {
                    push(MoveKind::Play(CardSet::single(low)));
                    let first = u32::from(min.max(2));
                    for len in first..first + Choices::runs_at(low, hand, min, from_two) {
                        push(MoveKind::Play(run(low, len)));
                    }
                }
            }
        }
        for k in 0..c.kinds.count_ones() {
            if let Some(kind) = c.nth_kind(k) {
                push(kind);
            }
        }
        if !c.sluff.is_empty() {
            subsets(c.sluff, 64, |s| push(MoveKind::Sluff(s)));
        }
    }

    /// A legal action chosen uniformly among every seat's legal actions,
    /// without listing them: `pick(n)` must return a number below `n`.
    pub fn random_move(&self, rules: &Ruleset, mut pick: impl FnMut(u32) -> u32) -> Option<Move> {
        if self.only_turn_acts(rules) {
            let seat = self.turn;
            let c = self.choices(rules, seat);
            let hand = self.hands[seat as usize];
            let count = c.count(hand);
            return (count > 0)
                .then(|| c.nth(hand, pick(count)))
                .flatten()
                .map(|k| Move::new(seat, k));
        }
        let mut counts = [0u32; crate::MAX_SEATS];
        let mut choices = [Choices::NONE; crate::MAX_SEATS];
        let mut total = 0;
        for seat in self.candidate_seats(rules).iter() {
            let c = self.choices(rules, seat);
            choices[seat as usize] = c;
            counts[seat as usize] = c.count(self.hands[seat as usize]);
            total += counts[seat as usize];
        }
        if total == 0 {
            return None;
        }
        let mut k = pick(total);
        for seat in 0..self.n {
            let count = counts[seat as usize];
            if k < count {
                let kind = choices[seat as usize].nth(self.hands[seat as usize], k)?;
                return Some(Move::new(seat, kind));
            }
            k -= count;
        }
        None
    }

    /// The seats that may have a legal action: only the seat due, unless a
    /// window is open or a seat may act out of turn.
    pub(crate) fn candidate_seats(&self, rules: &Ruleset) -> SeatSet {
        if self.only_turn_acts(rules) {
            let mut seats = SeatSet::EMPTY;
            seats.insert(self.turn);
            seats
        } else {
            SeatSet::first(self.n)
        }
    }

    /// Whether only the seat due may have a legal action. Phase two is tested
    /// first: no seat acts out of turn there, whatever the ruleset.
    #[inline]
    fn only_turn_acts(&self, rules: &Ruleset) -> bool {
        if self.turn == crate::state::NONE {
            return false;
        }
        if self.phase == Phase::Two {
            return true;
        }
        self.window.is_empty()
            && !rules.options.rob
            && !rules.options.bank
            && self.sluff_free(rules)
    }
}

//! What a seat may do now, as one compact description from which both the
//! legal-action list and the check of a submitted action are derived, so the
//! two cannot drift apart.

use arrayvec::ArrayVec;

use crate::phase2::runs_allowed;
use crate::rules::{Phase1Mode, Ruleset};
use crate::state::{Awaiting, Phase, State};
use crate::{Card, CardSet, Move, MoveKind, Seat};

/// The most legal actions one seat can have (phase two with every run of a
/// full hand is about 365).
pub const MAX_MOVES: usize = 512;

/// A seat's legal actions, without allocation.
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

/// The form a play may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    Single,
    /// One to `max` cards of one rank (all-play `phase1.multi`).
    SameRank(u8),
    /// One card or a run of at least `min` (from the two, if `from_two`).
    Runs {
        min: u8,
        from_two: bool,
    },
}

/// The actions without cards, a bit each in [`Choices::kinds`], in the
/// order the legal list gives them.
pub(crate) mod kind {
    pub const CHANCE: u8 = 1;
    pub const PICKUP: u8 = 2;
    pub const PASS: u8 = 4;
    pub const CLAIM: u8 = 8;
    pub const ROB: u8 = 16;
    pub const BANK: u8 = 32;
}

/// The action of each bit of [`Choices::kinds`], lowest bit first.
const KINDS: [MoveKind; 6] = [
    MoveKind::Chance,
    MoveKind::Pickup,
    MoveKind::Pass,
    MoveKind::Claim,
    MoveKind::Rob,
    MoveKind::Bank,
];

/// Everything one seat may do now.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Choices {
    /// Cards that may be played alone or as the lowest card of a play.
    pub plays: CardSet,
    pub shape: Shape,
    /// The actions without cards that are legal, a [`kind`] bit each: packed
    /// so that counting them is a popcount and the `k`-th is a bit select.
    pub kinds: u8,
    /// Cards that may be sluffed, any non-empty subset of them.
    pub sluff: CardSet,
}

impl Choices {
    pub const NONE: Choices = Choices {
        plays: CardSet::EMPTY,
        shape: Shape::Single,
        kinds: 0,
        sluff: CardSet::EMPTY,
    };

    pub fn any(&self) -> bool {
        !self.plays.is_empty() || self.kinds != 0 || !self.sluff.is_empty()
    }

    /// Whether the action of [`kind`] bit `bit` is legal.
    #[inline]
    pub fn has(&self, bit: u8) -> bool {
        self.kinds & bit != 0
    }

    /// Makes the action of [`kind`] bit `bit` legal if `on`.
    #[inline]
    pub fn allow(&mut self, bit: u8, on: bool) {
        self.kinds |= if on { bit } else { 0 };
    }

    /// The `k`-th legal action without cards (`k` below their count).
    #[inline]
    pub(crate) fn nth_kind(&self, k: u32) -> Option<MoveKind> {
        let at = crate::select::nth_set_bit_in_byte(self.kinds, k);
        KINDS.get(at as usize).copied()
    }
}

/// The length of the run of `hand` cards going up from `low` (1 if only `low`).
fn run_length(low: Card, hand: CardSet) -> u32 {
    let above = hand.bits() >> low.index();
    (!above)
        .trailing_zeros()
        .min(13 - u32::from(low.index() % 16))
}

/// The run of `len` cards going up from `low`.
pub(crate) fn run(low: Card, len: u32) -> CardSet {
    CardSet::from_bits(((1u64 << len) - 1) << low.index())
}

/// How many subsets of `m` cards have 1 to `max` cards.
fn subset_count(m: u32, max: u32) -> u32 {
    if max >= m {
        (1 << m) - 1
    } else {
        (1..(1u32 << m)).filter(|s| s.count_ones() <= max).count() as u32
    }
}

/// Every non-empty subset of `set` with at most `max` cards.
pub(crate) fn subsets(set: CardSet, max: u32, mut f: impl FnMut(CardSet)) {
    let cards: ArrayVec<Card, 64> = set.iter().collect();
    let count = cards.len().min(16);
    for mask in 1u32..(1 << count) {
        if mask.count_ones() <= max {
            f((0..count)
                .filter(|i| mask >> i & 1 == 1)
                .map(|i| cards[i])
                .collect());
        }
    }
}

impl Choices {
    /// The runs of at least `min` cards that may start at `low`.
    pub(crate) fn runs_at(low: Card, hand: CardSet, min: u8, from_two: bool) -> u32 {
        if from_two && low.rank() != crate::Rank::TWO {
            return 0;
        }
        (run_length(low, hand) + 1).saturating_sub(u32::from(min.max(2)))
    }

    /// Single cards and actions without cards: the common case, counted and
    /// indexed without the general machinery.
    #[inline]
    fn simple(&self) -> bool {
        self.shape == Shape::Single && self.sluff.is_empty()
    }

    /// The number of legal actions this describes.
    #[inline]
    pub fn count(&self, hand: CardSet) -> u32 {
        if self.simple() {
            return self.plays.len() + self.kinds.count_ones();
        }
        self.count_general(hand)
    }

    fn count_general(&self, hand: CardSet) -> u32 {
        let plays = match self.shape {
            Shape::Single => self.plays.len(),
            Shape::SameRank(max) => crate::Rank::all()
                .map(|r| subset_count((self.plays & CardSet::rank(r)).len(), u32::from(max)))
                .sum(),
            Shape::Runs { min, from_two } => self
                .plays
                .iter()
                .map(|low| 1 + Choices::runs_at(low, hand, min, from_two))
                .sum(),
        };
        plays + self.kinds.count_ones() + (1u32 << self.sluff.len()) - 1
    }

    /// The `k`-th legal action, in the order [`State::legal_moves`] lists them.
    #[inline]
    pub fn nth(&self, hand: CardSet, k: u32) -> Option<MoveKind> {
        if !self.simple() {
            return self.nth_general(hand, k);
        }
        match k.checked_sub(self.plays.len()) {
            None => self
                .plays
                .nth(k)
                .map(|c| MoveKind::Play(CardSet::single(c))),
            Some(k) => self.nth_kind(k),
        }
    }

    fn nth_general(&self, hand: CardSet, mut k: u32) -> Option<MoveKind> {
        match self.shape {
            Shape::Single => {
                if k < self.plays.len() {
                    return self
                        .plays
                        .nth(k)
                        .map(|c| MoveKind::Play(CardSet::single(c)));
                }
                k -= self.plays.len();
            }
            Shape::SameRank(max) => {
                for rank in crate::Rank::all() {
                    let of_rank = self.plays & CardSet::rank(rank);
                    let count = subset_count(of_rank.len(), u32::from(max));
                    if k < count {
                        let mut found = None;
                        let mut i = 0;
                        subsets(of_rank, u32::from(max), |s| {
                            if i == k {
                                found = Some(MoveKind::Play(s));
                            }
                            i += 1;
                        });
                        return found;
                    }
                    k -= count;
                }
            }
            Shape::Runs { min, from_two } => {
                for low in self.plays {
                    let runs = Choices::runs_at(low, hand, min, from_two);
                    if k <= runs {
                        let len = if k == 0 {
                            1
                        } else {
                            u32::from(min.max(2)) + k - 1
                        };
                        return Some(MoveKind::Play(run(low, len)));
                    }
                    k -= runs + 1;
                }
            }
        }
        let kinds = self.kinds.count_ones();
        if k < kinds {
            return self.nth_kind(k);
        }
        k -= kinds;
        let mut found = None;
        let mut i = 0;
        subsets(self.sluff, 64, |s| {
            if i == k {
                found = Some(MoveKind::Sluff(s));
            }
            i += 1;
        });
        found
    }
}

impl State {
    /// What `seat` may do now.
    #[inline(always)]
    pub(crate) fn choices(&self, rules: &Ruleset, seat: Seat) -> Choices {
        if self.phase == Phase::Over || self.awaiting != Awaiting::Nothing || seat >= self.n {
            return Choices::NONE;
        }
        match self.phase {
            Phase::One => self.choices_phase_one(rules, seat),
            _ => self.choices_phase_two(rules, seat),
        }
    }

    /// Phase one. Two-card tricks without sluffing (`skitgubbe`) have no
    /// window, claim or out-of-turn action: the seat due plays a card or
    /// chance. That case is answered inline; every other goes the long way.
    #[inline(always)]
    fn choices_phase_one(&self, rules: &Ruleset, seat: Seat) -> Choices {
        let o = &rules.options;
        if o.mode != Phase1Mode::Pairs || o.sluff != crate::rules::Sluff::None {
            return self.choices_phase_one_general(rules, seat);
        }
        let decided = self.flags & crate::state::flag::DECIDED != 0;
        if decided || seat != self.turn {
            return Choices::NONE;
        }
        let mut c = Choices {
            plays: self.hands[seat as usize],
            ..Choices::NONE
        };
        c.allow(kind::CHANCE, self.chance_allowed(rules));
        c
    }

    #[inline(never)]
    fn choices_phase_one_general(&self, rules: &Ruleset, seat: Seat) -> Choices {
        let o = &rules.options;
        let hand = self.hands[seat as usize];
        let decided = self.flags & crate::state::flag::DECIDED != 0;
        let mut c = Choices::NONE;
        if !decided && seat == self.turn {
            match o.mode {
                Phase1Mode::Pairs => {
                    c.plays = hand;
                    c.allow(kind::CHANCE, self.chance_allowed(rules));
                }
                Phase1Mode::All => {
                    c.shape = Shape::SameRank(o.multi);
                    match self.compulsory_rank(rules, seat) {
                        Some(rank) => c.plays = hand & CardSet::rank(rank),
                        None => {
                            c.plays = hand;
                            c.allow(kind::CHANCE, self.chance_allowed(rules));
                        }
                    }
                }
                Phase1Mode::TurnedTrump if self.table.is_empty() => c.plays = hand,
                Phase1Mode::TurnedTrump => {
                    let (plays, pickup) = self.second_options(rules, hand);
                    c.plays = plays;
                    c.allow(kind::PICKUP, pickup);
                }
            }
        }
        c.sluff = self.sluffable(rules, seat);
        c.allow(kind::PASS, decided && self.window.contains(seat));
        let claim = decided && o.sluff == crate::rules::Sluff::Unlimited && seat == self.winner;
        c.allow(kind::CLAIM, claim);
        if o.mode == Phase1Mode::TurnedTrump {
            c.allow(kind::ROB, self.may_rob(rules, seat));
            c.allow(kind::BANK, self.may_bank(rules, seat));
        }
        c
    }

    #[inline(always)]
    fn choices_phase_two(&self, rules: &Ruleset, seat: Seat) -> Choices {
        if seat != self.turn {
            return Choices::NONE;
        }
        let hand = self.hands[seat as usize];
        let shape = match runs_allowed(rules, self.trump) {
            None => Shape::Single,
            Some(from_two) => Shape::Runs {
                min: rules.options.min,
                from_two,
            },
        };
        let Some(top) = self.card_to_beat() else {
            return Choices {
                plays: hand,
                shape,
                ..Choices::NONE
            };
        };
        if self.flags & crate::state::flag::FORCED != 0 {
            return Choices {
                kinds: kind::PICKUP,
                ..Choices::NONE
            };
        }
        let plays = self.beaters(rules, hand, top);
        let pickup = plays.is_empty() || !rules.options.must_beat;
        let mut c = Choices {
            plays,
            shape,
            ..Choices::NONE
        };
        c.allow(kind::PICKUP, pickup);
        c
    }

    /// Whether no seat can sluff out of turn now.
    pub(crate) fn sluff_free(&self, rules: &Ruleset) -> bool {
        self.phase != Phase::One || rules.options.sluff == crate::rules::Sluff::None
    }
}

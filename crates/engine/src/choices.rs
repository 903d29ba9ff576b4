//! What a seat may do now, as one compact description from which both the
//! legal-action list and the check of a submitted action are derived, so the
//! two cannot drift apart.

use arrayvec::ArrayVec;

use crate::phase2::runs_allowed;
use crate::rules::{Phase1Mode, Ruleset};
use crate::state::{Awaiting, Phase, State};
use crate::{Card, CardSet, Move, MoveError, MoveKind, Seat, SeatSet};

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

/// Everything one seat may do now.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Choices {
    /// Cards that may be played alone or as the lowest card of a play.
    pub plays: CardSet,
    pub shape: Shape,
    pub chance: bool,
    pub pickup: bool,
    pub pass: bool,
    pub claim: bool,
    pub rob: bool,
    pub bank: bool,
    /// Cards that may be sluffed, any non-empty subset of them.
    pub sluff: CardSet,
}

impl Choices {
    pub const NONE: Choices = Choices {
        plays: CardSet::EMPTY,
        shape: Shape::Single,
        chance: false,
        pickup: false,
        pass: false,
        claim: false,
        rob: false,
        bank: false,
        sluff: CardSet::EMPTY,
    };

    pub fn any(&self) -> bool {
        !self.plays.is_empty()
            || self.chance
            || self.pickup
            || self.pass
            || self.claim
            || self.rob
            || self.bank
            || !self.sluff.is_empty()
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
fn run(low: Card, len: u32) -> CardSet {
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
fn subsets(set: CardSet, max: u32, mut f: impl FnMut(CardSet)) {
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
    fn runs_at(low: Card, hand: CardSet, min: u8, from_two: bool) -> u32 {
        if from_two && low.rank() != crate::Rank::TWO {
            return 0;
        }
        (run_length(low, hand) + 1).saturating_sub(u32::from(min.max(2)))
    }

    /// Single cards plus at most chance and pick-up: the common case, counted
    /// and indexed without the general machinery.
    fn simple(&self) -> bool {
        self.shape == Shape::Single
            && self.sluff.is_empty()
            && !(self.pass || self.claim || self.rob || self.bank)
    }

    /// The number of legal actions this describes.
    pub fn count(&self, hand: CardSet) -> u32 {
        if self.simple() {
            return self.plays.len() + u32::from(self.chance) + u32::from(self.pickup);
        }
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
        let flags = [
            self.chance,
            self.pickup,
            self.pass,
            self.claim,
            self.rob,
            self.bank,
        ];
        plays + flags.iter().filter(|&&f| f).count() as u32 + (1u32 << self.sluff.len()) - 1
    }

    /// The `k`-th legal action, in the order [`State::legal_moves`] lists them.
    pub fn nth(&self, hand: CardSet, mut k: u32) -> Option<MoveKind> {
        if self.simple() && k >= self.plays.len() {
            let k = k - self.plays.len();
            return match (self.chance, self.pickup, k) {
                (true, _, 0) => Some(MoveKind::Chance),
                (false, true, 0) | (true, true, 1) => Some(MoveKind::Pickup),
                _ => None,
            };
        }
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
        let flags = [
            (self.chance, MoveKind::Chance),
            (self.pickup, MoveKind::Pickup),
            (self.pass, MoveKind::Pass),
            (self.claim, MoveKind::Claim),
            (self.rob, MoveKind::Rob),
            (self.bank, MoveKind::Bank),
        ];
        for (on, kind) in flags {
            if on {
                if k == 0 {
                    return Some(kind);
                }
                k -= 1;
            }
        }
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
    /// A legal action chosen uniformly among every seat's legal actions,
    /// without listing them: `pick(n)` must return a number below `n`.
    pub fn random_move(&self, rules: &Ruleset, mut pick: impl FnMut(u32) -> u32) -> Option<Move> {
        let seats = self.candidate_seats(rules);
        if seats.len() == 1 {
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
        for seat in seats.iter() {
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
    fn candidate_seats(&self, rules: &Ruleset) -> SeatSet {
        let only_turn = self.window.is_empty()
            && !rules.options.rob
            && !rules.options.bank
            && self.sluff_free(rules)
            && self.turn != crate::state::NONE;
        if only_turn {
            let mut seats = SeatSet::EMPTY;
            seats.insert(self.turn);
            seats
        } else {
            SeatSet::first(self.n)
        }
    }

    /// What `seat` may do now.
    pub(crate) fn choices(&self, rules: &Ruleset, seat: Seat) -> Choices {
        if self.phase == Phase::Over || self.awaiting != Awaiting::Nothing || seat >= self.n {
            return Choices::NONE;
        }
        match self.phase {
            Phase::One => self.choices_phase_one(rules, seat),
            _ => self.choices_phase_two(rules, seat),
        }
    }

    fn choices_phase_one(&self, rules: &Ruleset, seat: Seat) -> Choices {
        let o = &rules.options;
        let hand = self.hands[seat as usize];
        let decided = self.flags & crate::state::flag::DECIDED != 0;
        let mut c = Choices::NONE;
        if !decided && seat == self.turn {
            match o.mode {
                Phase1Mode::Pairs => {
                    c.plays = hand;
                    c.chance = self.chance_allowed(rules);
                }
                Phase1Mode::All => {
                    c.shape = Shape::SameRank(o.multi);
                    match self.compulsory_rank(rules, seat) {
                        Some(rank) => c.plays = hand & CardSet::rank(rank),
                        None => {
                            c.plays = hand;
                            c.chance = self.chance_allowed(rules);
                        }
                    }
                }
                Phase1Mode::TurnedTrump if self.table.is_empty() => c.plays = hand,
                Phase1Mode::TurnedTrump => (c.plays, c.pickup) = self.second_options(rules, hand),
            }
        }
        c.sluff = self.sluffable(rules, seat);
        c.pass = decided && self.window.contains(seat);
        c.claim = decided && o.sluff == crate::rules::Sluff::Unlimited && seat == self.winner;
        if o.mode == Phase1Mode::TurnedTrump {
            c.rob = self.may_rob(rules, seat);
            c.bank = self.may_bank(rules, seat);
        }
        c
    }

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
                pickup: true,
                ..Choices::NONE
            };
        }
        let plays = self.beaters(rules, hand, top);
        let pickup = plays.is_empty() || !rules.options.must_beat;
        Choices {
            plays,
            shape,
            pickup,
            ..Choices::NONE
        }
    }

    /// Whether no seat can sluff out of turn now.
    fn sluff_free(&self, rules: &Ruleset) -> bool {
        self.phase != Phase::One || rules.options.sluff == crate::rules::Sluff::None
    }

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
        for (on, kind) in [
            (c.chance, MoveKind::Chance),
            (c.pickup, MoveKind::Pickup),
            (c.pass, MoveKind::Pass),
            (c.claim, MoveKind::Claim),
            (c.rob, MoveKind::Rob),
            (c.bank, MoveKind::Bank),
        ] {
            if on {
                push(kind);
            }
        }
        if !c.sluff.is_empty() {
            subsets(c.sluff, 64, |s| push(MoveKind::Sluff(s)));
        }
    }

    /// Checks a move against [`State::choices`], naming the rule it breaks.
    pub fn check(&self, rules: &Ruleset, mv: Move) -> Result<(), MoveError> {
        if self.phase == Phase::Over {
            return Err(MoveError::GameOver);
        }
        if self.awaiting != Awaiting::Nothing {
            return Err(MoveError::AwaitingShuffle);
        }
        let seat = mv.seat;
        if seat >= self.n {
            return Err(MoveError::NoSuchSeat { seat });
        }
        let c = self.choices(rules, seat);
        if !c.any() {
            return Err(MoveError::NotYourTurn { seat });
        }
        let hand = self.hands[seat as usize];
        match mv.kind {
            MoveKind::Play(cards) => {
                if let Some(card) = (cards - hand).lowest() {
                    return Err(MoveError::CardNotHeld { seat, card });
                }
                let Some(lowest) = cards.lowest() else {
                    return Err(MoveError::NotNow { kind: "play" });
                };
                if c.plays.is_empty() {
                    return Err(self.no_play_reason(&c));
                }
                check_shape(c.shape, cards, lowest)?;
                if !c.plays.contains(lowest) {
                    return Err(self.play_refusal(rules, seat, lowest));
                }
                Ok(())
            }
            MoveKind::Sluff(cards) => {
                if rules.options.sluff == crate::rules::Sluff::None {
                    return Err(MoveError::KindNotInRuleset { kind: "sluff" });
                }
                if let Some(card) = (cards - hand).ascending().next() {
                    return Err(MoveError::CardNotHeld { seat, card });
                }
                match (cards - c.sluff).ascending().next() {
                    Some(card) => Err(MoveError::NotSluffable { card }),
                    None if cards.is_empty() => Err(MoveError::NotNow { kind: "sluff" }),
                    None => Ok(()),
                }
            }
            MoveKind::Chance if !c.chance => Err(self.chance_refusal(rules)),
            MoveKind::Pickup if !c.pickup => Err(self.pickup_refusal(rules)),
            MoveKind::Pass if !c.pass => Err(self.kind_refusal(rules, "pass")),
            MoveKind::Claim if !c.claim => Err(self.kind_refusal(rules, "claim")),
            MoveKind::Rob if !c.rob => Err(self.kind_refusal(rules, "rob")),
            MoveKind::Bank if !c.bank => Err(self.kind_refusal(rules, "bank")),
            _ => Ok(()),
        }
    }

    fn no_play_reason(&self, c: &Choices) -> MoveError {
        if self.flags & crate::state::flag::FORCED != 0 {
            MoveError::MustPickUp
        } else if c.pickup {
            MoveError::EmptyHandMustPickUp
        } else {
            MoveError::NotNow { kind: "play" }
        }
    }

    fn play_refusal(&self, rules: &Ruleset, seat: Seat, lowest: Card) -> MoveError {
        if self.phase == Phase::Two {
            return match self.card_to_beat() {
                Some(top) => MoveError::DoesNotBeat { card: lowest, top },
                None => MoveError::NotNow { kind: "play" },
            };
        }
        if let Some(rank) = self.compulsory_rank(rules, seat) {
            let card = (self.hands[seat as usize] & CardSet::rank(rank))
                .first()
                .unwrap_or(lowest);
            return MoveError::MustTie { card };
        }
        match self.led_card() {
            Some(led) if rules.options.mode == Phase1Mode::TurnedTrump => {
                let follows = !(self.hands[seat as usize] & CardSet::suit(led.suit())).is_empty();
                if rules.options.must_follow && follows {
                    MoveError::MustFollow
                } else {
                    MoveError::DoesNotBeat {
                        card: lowest,
                        top: led,
                    }
                }
            }
            _ => MoveError::NotNow { kind: "play" },
        }
    }

    fn chance_refusal(&self, rules: &Ruleset) -> MoveError {
        if self.phase == Phase::Two {
            MoveError::ChanceInPhaseTwo
        } else if !rules.options.chance || rules.options.mode == Phase1Mode::TurnedTrump {
            MoveError::ChanceNotAllowed
        } else if self.piles.stock_len() < 2 {
            MoveError::ChanceNeedsTwoCards {
                stock: self.piles.stock_len(),
            }
        } else {
            MoveError::NotNow { kind: "chance" }
        }
    }

    fn pickup_refusal(&self, rules: &Ruleset) -> MoveError {
        if self.phase == Phase::One && rules.options.mode != Phase1Mode::TurnedTrump {
            MoveError::PickupInPhaseOne
        } else if self.phase == Phase::One && rules.options.must_follow && !self.table.is_empty() {
            MoveError::MustFollow
        } else if self.table.is_empty() {
            MoveError::PickupEmptyTable
        } else if rules.options.must_beat {
            MoveError::MustBeat
        } else {
            MoveError::NotNow { kind: "pickup" }
        }
    }

    fn kind_refusal(&self, rules: &Ruleset, kind: &'static str) -> MoveError {
        let o = &rules.options;
        let in_ruleset = match kind {
            "pass" => o.sluff != crate::rules::Sluff::None,
            "claim" => o.sluff == crate::rules::Sluff::Unlimited,
            "rob" => o.rob,
            _ => o.bank,
        };
        if in_ruleset {
            MoveError::NotNow { kind }
        } else {
            MoveError::KindNotInRuleset { kind }
        }
    }
}

fn check_shape(shape: Shape, cards: CardSet, lowest: Card) -> Result<(), MoveError> {
    if cards.len() == 1 {
        return Ok(());
    }
    match shape {
        Shape::Single => Err(MoveError::OneCardOnly),
        Shape::SameRank(max) => {
            let one_rank = cards.is_subset(CardSet::rank(lowest.rank()));
            if one_rank && cards.len() <= u32::from(max) {
                Ok(())
            } else {
                Err(MoveError::NotOneRank { max })
            }
        }
        Shape::Runs { min, from_two } => {
            let lane = CardSet::suit(lowest.suit());
            // A run is contiguous bits from the lowest card upward in one suit lane.
            let run = cards.bits() >> lowest.index();
            let contiguous = cards.is_subset(lane) && run & (run + 1) == 0;
            if !contiguous || cards.len() < u32::from(min) {
                Err(MoveError::NotASequence { min })
            } else if from_two && lowest.rank() != crate::Rank::TWO {
                Err(MoveError::RunMustStartWithTwo)
            } else {
                Ok(())
            }
        }
    }
}

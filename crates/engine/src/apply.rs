//! Applying actions: check first, then change the state in ways that cannot
//! fail, so a refused action leaves the state exactly as it was.

use crate::rules::{Phase1Mode, Ruleset};
use crate::state::{Awaiting, Phase, State, flag};
use crate::{Action, Card, CardSet, Move, MoveError, MoveKind};

impl State {
    /// Applies a seat's move or a chance outcome.
    pub fn apply(&mut self, rules: &Ruleset, action: &Action) -> Result<(), MoveError> {
        match action {
            Action::Move(mv) => self.play(rules, *mv),
            Action::Shuffle(order) => self.resolve_shuffle(rules, order),
        }
    }

    /// Applies a seat's move.
    pub fn play(&mut self, rules: &Ruleset, mv: Move) -> Result<(), MoveError> {
        self.check(rules, mv)?;
        self.play_unchecked(rules, mv);
        Ok(())
    }

    /// Applies a move taken from [`State::legal_moves`] without checking it
    /// again: the fast path for search and benchmarks. Any other move leaves
    /// the state meaningless (debug builds assert).
    #[inline]
    pub fn play_unchecked(&mut self, rules: &Ruleset, mv: Move) {
        debug_assert_eq!(self.check(rules, mv), Ok(()));
        let counts = self.phase == Phase::Two || rules.options.mode == Phase1Mode::TurnedTrump;
        match self.phase {
            Phase::One => self.play_phase_one(rules, mv),
            _ => self.play_phase_two(rules, mv),
        }
        if counts {
            self.counted += 1;
            if u64::from(self.counted) >= rules.options.action_limit && self.phase != Phase::Over {
                self.flags |= flag::DRAWN;
                self.finish(None);
            }
        }
    }

    fn play_phase_two(&mut self, rules: &Ruleset, mv: Move) {
        match mv.kind {
            MoveKind::Play(cards) => self.lay_phase_two(rules, mv.seat, cards),
            MoveKind::Pickup => self.pickup_phase_two(rules, mv.seat),
            _ => {}
        }
    }

    /// The cards an awaited shuffle must order.
    pub fn awaited_cards(&self) -> CardSet {
        match self.awaiting {
            Awaiting::Nothing => CardSet::EMPTY,
            Awaiting::LowCards => self.aside,
            Awaiting::UnfinishedDeal | Awaiting::Split => self.table.set(),
        }
    }

    fn resolve_shuffle(&mut self, rules: &Ruleset, order: &[Card]) -> Result<(), MoveError> {
        if self.phase == Phase::Over {
            return Err(MoveError::GameOver);
        }
        if self.awaiting == Awaiting::Nothing {
            return Err(MoveError::NoShuffleAwaited);
        }
        let expected = self.awaited_cards();
        let given: CardSet = order.iter().copied().collect();
        if given != expected || order.len() != expected.len() as usize {
            return Err(MoveError::WrongShuffle {
                expected: expected.len(),
            });
        }
        match self.awaiting {
            Awaiting::LowCards => self.deal_low_cards(rules, order),
            Awaiting::UnfinishedDeal => self.deal_unfinished(rules, order),
            Awaiting::Split => self.split(rules, order),
            Awaiting::Nothing => {}
        }
        Ok(())
    }
}

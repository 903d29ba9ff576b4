//! Checking a submitted move against [`Choices`], naming the rule it breaks.

use crate::choices::{Choices, Shape, kind};
use crate::rules::{Phase1Mode, Ruleset};
use crate::state::{Awaiting, Phase, State};
use crate::{Card, CardSet, Move, MoveError, MoveKind, Seat};

impl State {
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
            MoveKind::Chance if !c.has(kind::CHANCE) => Err(self.chance_refusal(rules)),
            MoveKind::Pickup if !c.has(kind::PICKUP) => Err(self.pickup_refusal(rules)),
            MoveKind::Pass if !c.has(kind::PASS) => Err(self.kind_refusal(rules, "pass")),
            MoveKind::Claim if !c.has(kind::CLAIM) => Err(self.kind_refusal(rules, "claim")),
            MoveKind::Rob if !c.has(kind::ROB) => Err(self.kind_refusal(rules, "rob")),
            MoveKind::Bank if !c.has(kind::BANK) => Err(self.kind_refusal(rules, "bank")),
            _ => Ok(()),
        }
    }

    fn no_play_reason(&self, c: &Choices) -> MoveError {
        if self.flags & crate::state::flag::FORCED != 0 {
            MoveError::MustPickUp
        } else if c.has(kind::PICKUP) {
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

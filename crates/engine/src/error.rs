//! Why an action was refused: one variant per rule, each naming what broke it.

use crate::{Card, Seat};

/// An illegal action. The state is unchanged when one is returned.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    #[error("the game is over")]
    GameOver,
    #[error("a chance outcome (shuffle) is awaited; no seat may act")]
    AwaitingShuffle,
    #[error("no shuffle is awaited")]
    NoShuffleAwaited,
    #[error("the shuffle must order exactly the {expected} awaited cards")]
    WrongShuffle { expected: u32 },
    #[error("seat {seat} is not at this table")]
    NoSuchSeat { seat: Seat },
    #[error("it is not seat {seat}'s turn")]
    NotYourTurn { seat: Seat },
    #[error("seat {seat} does not hold {card}")]
    CardNotHeld { seat: Seat, card: Card },
    #[error("this ruleset plays one card at a time")]
    OneCardOnly,
    #[error("a multi-card play must be cards of one rank, at most {max}")]
    NotOneRank { max: u8 },
    #[error("a lay must be one card or a run of one suit of at least {min} cards")]
    NotASequence { min: u8 },
    #[error("a run must begin with the two of its suit")]
    RunMustStartWithTwo,
    #[error("{card} does not beat {top}")]
    DoesNotBeat { card: Card, top: Card },
    #[error("chance needs at least two cards in the stock (it has {stock})")]
    ChanceNeedsTwoCards { stock: u32 },
    #[error("chance is not played in this ruleset")]
    ChanceNotAllowed,
    #[error("chance is only played in phase one")]
    ChanceInPhaseTwo,
    #[error("you may not pick up from an empty table")]
    PickupEmptyTable,
    #[error("picking up is only allowed in phase two (or with a turned-up trump)")]
    PickupInPhaseOne,
    #[error("you must pick up (phase2.forced_pickup)")]
    MustPickUp,
    #[error("you can beat, so you may not pick up (phase2.must_beat)")]
    MustBeat,
    #[error("with an empty hand you may only pick up")]
    EmptyHandMustPickUp,
    #[error("this ruleset has no {kind}")]
    KindNotInRuleset { kind: &'static str },
    #[error("{kind} is not possible now")]
    NotNow { kind: &'static str },
    #[error("{card} cannot be sluffed now")]
    NotSluffable { card: Card },
    #[error("holding the led suit, you must play a card of it (phase1.must_follow)")]
    MustFollow,
    #[error("you hold {card} of the highest rank played and must tie (phase1.compulsory_ties)")]
    MustTie { card: Card },
}

impl MoveError {
    /// A short stable code for clients and metrics.
    pub fn code(&self) -> &'static str {
        match self {
            MoveError::GameOver => "game_over",
            MoveError::AwaitingShuffle => "awaiting_shuffle",
            MoveError::NoShuffleAwaited => "no_shuffle_awaited",
            MoveError::WrongShuffle { .. } => "wrong_shuffle",
            MoveError::NoSuchSeat { .. } => "no_such_seat",
            MoveError::NotYourTurn { .. } => "not_your_turn",
            MoveError::CardNotHeld { .. } => "card_not_held",
            MoveError::OneCardOnly => "one_card_only",
            MoveError::NotOneRank { .. } => "not_one_rank",
            MoveError::NotASequence { .. } => "not_a_sequence",
            MoveError::RunMustStartWithTwo => "run_must_start_with_two",
            MoveError::DoesNotBeat { .. } => "does_not_beat",
            MoveError::ChanceNeedsTwoCards { .. } => "chance_needs_two_cards",
            MoveError::ChanceNotAllowed => "chance_not_allowed",
            MoveError::ChanceInPhaseTwo => "chance_in_phase_two",
            MoveError::PickupEmptyTable => "pickup_empty_table",
            MoveError::PickupInPhaseOne => "pickup_in_phase_one",
            MoveError::MustPickUp => "must_pick_up",
            MoveError::MustBeat => "must_beat",
            MoveError::EmptyHandMustPickUp => "empty_hand_must_pick_up",
            MoveError::KindNotInRuleset { .. } => "kind_not_in_ruleset",
            MoveError::NotNow { .. } => "not_now",
            MoveError::NotSluffable { .. } => "not_sluffable",
            MoveError::MustFollow => "must_follow",
            MoveError::MustTie { .. } => "must_tie",
        }
    }
}

//! The resolved ruleset: every option of SPEC sections 5 and 8.2.

use crate::{CardSet, Rank, Suit};

/// `phase1.mode`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase1Mode {
    /// Two-card tricks (SPEC 3.1).
    Pairs,
    /// Every player in the game plays to each trick.
    All,
    /// A turned-up trump from the deal, beat or pick up (SPEC 5.4).
    TurnedTrump,
}

/// `phase1.ties` (all mode).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ties {
    Replay,
    TakeBack,
}

/// `phase1.sluff`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sluff {
    None,
    Once,
    OwnRank,
    Unlimited,
    LosingRanks,
}

/// `phase1.end`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase1End {
    NoCard,
    StockEmpty,
}

/// `phase1.unfinished_trick`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnfinishedTrick {
    Return,
    Deal,
}

/// `phase1.tie_runout`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TieRunout {
    Return,
    Split,
}

/// `between.empty_hand`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EmptyHand {
    Safe,
    Blue,
    Loses,
    LowCards,
}

/// The threshold of `between.low_cards`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Threshold {
    /// Any number of cards: one above the largest hand gives every seat low cards.
    Count(u64),
    /// The trump card's rank, ace 14.
    TrumpRank,
}

/// `between.low_cards` when not `"none"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LowCards {
    pub threshold: Threshold,
    /// Ranks every player discards, bit `rank - 2`.
    pub ranks: u16,
    /// Extra discards given as a rank: that rank of trumps.
    pub extra_trump_ranks: u16,
    /// Extra discards given as cards.
    pub extra_cards: CardSet,
}

impl LowCards {
    /// Default ranks 2 to 5.
    pub const DEFAULT_RANKS: u16 = 0b1111;

    /// Every card discarded when trumps are `trump`.
    pub fn discards(&self, trump: Suit) -> CardSet {
        CardSet::FULL.with_ranks(self.ranks)
            | (CardSet::suit(trump).with_ranks(self.extra_trump_ranks))
            | self.extra_cards
    }

    /// The threshold as a number of cards, given the trump card's rank.
    pub fn threshold_for(&self, trump_rank: Rank) -> u64 {
        match self.threshold {
            Threshold::Count(n) => n,
            Threshold::TrumpRank => u64::from(trump_rank.value()),
        }
    }
}

/// `phase2.plays`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Plays {
    Singles,
    Sequences,
    SequencesFromTwo,
    ByTrumpColour,
}

/// `phase2.pickup`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pickup {
    Top,
    TopJoined,
    Bottom,
    BottomJoined,
    BottomCard,
}

/// `phase2.anti_trump`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AntiTrump {
    None,
    SameColour,
    ElectricClubs,
}

impl AntiTrump {
    /// The anti-trump suit for these trumps, if any.
    pub fn suit(self, trump: Suit) -> Option<Suit> {
        match self {
            AntiTrump::None => None,
            AntiTrump::SameColour => Some(match trump {
                Suit::Clubs => Suit::Spades,
                Suit::Spades => Suit::Clubs,
                Suit::Diamonds => Suit::Hearts,
                Suit::Hearts => Suit::Diamonds,
            }),
            AntiTrump::ElectricClubs => Some(if trump == Suit::Clubs {
                Suit::Spades
            } else {
                Suit::Clubs
            }),
        }
    }
}

/// A validated ruleset: a preset with its overrides applied. Copy, so the
/// engine reads options without indirection. Built only by
/// [`crate::Ruleset::from_spec`], which refuses every combination SPEC 8.2
/// refuses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Options {
    pub mode: Phase1Mode,
    pub skip_empty: bool,
    pub multi: u8,
    pub ties: Ties,
    pub tied_beats_unique: bool,
    pub compulsory_ties: bool,
    pub sluff: Sluff,
    pub end: Phase1End,
    pub unfinished_trick: UnfinishedTrick,
    pub tie_runout: TieRunout,
    pub chance: bool,
    pub rob: bool,
    pub bank: bool,
    pub must_follow: bool,
    pub empty_hand: EmptyHand,
    pub low_cards: Option<LowCards>,
    pub reserve: u8,
    pub plays: Plays,
    pub min: u8,
    pub pickup: Pickup,
    pub forced_pickup: bool,
    pub complete_suit: bool,
    pub trump_ends_trick: bool,
    pub must_beat: bool,
    pub anti_trump: AntiTrump,
    pub action_limit: u64,
}

impl Options {
    /// The `skitgubbe` preset: every option at its default (SPEC 3).
    pub const DEFAULT: Options = Options {
        mode: Phase1Mode::Pairs,
        skip_empty: false,
        multi: 1,
        ties: Ties::Replay,
        tied_beats_unique: false,
        compulsory_ties: false,
        sluff: Sluff::None,
        end: Phase1End::NoCard,
        unfinished_trick: UnfinishedTrick::Return,
        tie_runout: TieRunout::Return,
        chance: true,
        rob: false,
        bank: false,
        must_follow: false,
        empty_hand: EmptyHand::Safe,
        low_cards: None,
        reserve: 0,
        plays: Plays::Singles,
        min: 2,
        pickup: Pickup::Top,
        forced_pickup: false,
        complete_suit: false,
        trump_ends_trick: false,
        must_beat: false,
        anti_trump: AntiTrump::None,
        action_limit: 2000,
    };
}

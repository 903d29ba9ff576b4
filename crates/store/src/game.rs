//! Games: the table the lobby reads, next to each game's event log.

use std::fmt;
use std::str::FromStr;

use serde_json::Value;
use time::OffsetDateTime;
use uuid::Uuid;

use crate::{AccountId, ToAct};

/// A game's id: a random UUID, stored as text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GameId(pub Uuid);

impl GameId {
    pub(crate) fn random() -> Self {
        Self(Uuid::new_v4())
    }
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.hyphenated().fmt(f)
    }
}

impl FromStr for GameId {
    type Err = uuid::Error;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Uuid::parse_str(s).map(Self)
    }
}

/// Where a game is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameStatus {
    /// Waiting for seats to fill.
    Open,
    /// Every seat taken; being played.
    Active,
    /// Finished; the seed may be revealed.
    Over,
}

impl GameStatus {
    /// The text stored in the `status` column.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Open => "open",
            Self::Active => "active",
            Self::Over => "over",
        }
    }

    pub(crate) fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "open" => Self::Open,
            "active" => Self::Active,
            "over" => Self::Over,
            _ => return None,
        })
    }
}

/// The secret shuffle seed (hex). Its `Debug` hides it, so logging a
/// [`Game`] cannot leak a running game's deck.
#[derive(Clone, PartialEq, Eq)]
pub struct Seed(String);

impl Seed {
    pub fn new(hex: impl Into<String>) -> Self {
        Self(hex.into())
    }

    /// The seed itself: for dealing, and for revealing once the game is over.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Seed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Seed(<secret>)")
    }
}

/// A game to create, with its seats: `None` is an open seat.
#[derive(Debug, Clone)]
pub struct NewGame {
    pub ruleset: Value,
    /// A short canonical name of the ruleset, so ratings can group games.
    pub ruleset_key: String,
    pub created_by: AccountId,
    pub seats: Vec<Option<AccountId>>,
    pub seed: Seed,
    /// sha256 hex of the seed, published before play.
    pub commitment: String,
    pub rated: bool,
    /// The creator's idempotency key: unique per creator, so a repeated
    /// create finds the first game ([`crate::Error::DuplicateRequest`]).
    pub request_id: Option<String>,
    /// Who may act once the game is created (event 0), for the turn index.
    pub to_act: Option<ToAct>,
}

/// A stored game. `status` is [`GameStatus::Open`] while a seat is empty.
#[derive(Debug, Clone, PartialEq)]
pub struct Game {
    pub id: GameId,
    pub ruleset: Value,
    pub ruleset_key: String,
    pub created_by: AccountId,
    /// One entry per seat, in seat order; `None` is an open seat.
    pub seats: Vec<Option<AccountId>>,
    /// Secret: reveal only when `status` is [`GameStatus::Over`].
    pub seed: Seed,
    pub commitment: String,
    pub status: GameStatus,
    pub rated: bool,
    pub created_at: OffsetDateTime,
    pub finished_at: Option<OffsetDateTime>,
}

impl Game {
    pub fn players(&self) -> usize {
        self.seats.len()
    }
}

/// The outcome of taking a seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Joined {
    pub seat: u32,
    /// This join took the last open seat and made the game active. Exactly
    /// one joiner sees `true`, so exactly one starts the game.
    pub game_full: bool,
}

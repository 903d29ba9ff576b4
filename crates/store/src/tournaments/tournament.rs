//! A tournament as the store keeps it: the operator's spec (opaque here),
//! where it is, and its entries and tables.

use serde_json::Value;
use time::OffsetDateTime;

use crate::AccountId;

/// Where a tournament is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TournamentPhase {
    Registering,
    Running,
    Paused,
    Finished,
    Terminated,
}

impl TournamentPhase {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Registering => "registering",
            Self::Running => "running",
            Self::Paused => "paused",
            Self::Finished => "finished",
            Self::Terminated => "terminated",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        [
            Self::Registering,
            Self::Running,
            Self::Paused,
            Self::Finished,
            Self::Terminated,
        ]
        .into_iter()
        .find(|p| p.as_str() == s)
    }

    /// Whether it has ended for good.
    pub fn ended(self) -> bool {
        matches!(self, Self::Finished | Self::Terminated)
    }
}

/// A stored tournament.
#[derive(Debug, Clone, PartialEq)]
pub struct Tournament {
    pub id: String,
    pub spec: Value,
    pub phase: TournamentPhase,
    /// The round seated last; 0 before the start.
    pub round: u32,
    pub reason: String,
    /// Counts every change, entries included: the compare-and-set guard.
    pub revision: u64,
    /// The number of the latest event.
    pub sequence: u64,
    pub starts_at: Option<OffsetDateTime>,
    /// When it left registration.
    pub started_at: Option<OffsetDateTime>,
    /// Pins and forbids (opaque here).
    pub constraints: Value,
    pub created_by: AccountId,
    pub request_id: Option<String>,
    pub created_at: OffsetDateTime,
}

/// What an operator creates.
#[derive(Debug, Clone, PartialEq)]
pub struct NewTournament {
    pub spec: Value,
    pub starts_at: Option<OffsetDateTime>,
    pub created_by: AccountId,
    pub request_id: Option<String>,
}

/// One entrant.
#[derive(Debug, Clone, PartialEq)]
pub struct TournamentEntry {
    pub account_id: AccountId,
    /// The conservative rating at registration: the seeding.
    pub rating: f64,
    pub withdrawn: bool,
    pub registered_at: OffsetDateTime,
    /// The account's name at registration.
    pub name: String,
    /// Its owner group at registration (`crate::Account::owner_group`):
    /// two entrants of one owner never share a table.
    pub owner: AccountId,
}

/// Where a table is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TablePhase {
    /// Seated; its game not yet known to exist.
    Seated,
    Playing,
    Over,
    /// Its game was voided, or the tournament ended first: it does not count.
    Void,
}

impl TablePhase {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Seated => "seated",
            Self::Playing => "playing",
            Self::Over => "over",
            Self::Void => "void",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        [Self::Seated, Self::Playing, Self::Over, Self::Void]
            .into_iter()
            .find(|p| p.as_str() == s)
    }
}

/// One table of one round.
#[derive(Debug, Clone, PartialEq)]
pub struct TournamentTable {
    pub round: u32,
    /// 1-based within the round.
    pub table: u32,
    /// Seat order; seat 0 deals.
    pub seats: Vec<AccountId>,
    pub phase: TablePhase,
    pub game_id: Option<String>,
    /// Once over: each seat's place, 1-based, in seat order.
    pub places: Option<Vec<u32>>,
    /// Once over: the skitgubbe's seat, if any.
    pub loser: Option<u32>,
    /// Once over: the account that lost it on time, if one did.
    pub no_show: Option<AccountId>,
    pub finished_at: Option<OffsetDateTime>,
    /// A ladder's validation table: a new bot against house bots only,
    /// left out of the standings and the pairing history.
    pub validation: bool,
}

/// A stored event: its number and body (opaque here).
#[derive(Debug, Clone, PartialEq)]
pub struct TournamentEventRow {
    pub sequence: u64,
    pub body: Value,
}

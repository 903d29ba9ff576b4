//! Tournaments for tables of 2 to 6 seats, as pure functions of stored
//! inputs and a seed: no I/O, no clock, no global state, so any round can
//! be recomputed and audited from the event's records.
//!
//! - scoring: [`placement_points`], [`TableResult`], [`standings`] with an
//!   operator's [`Tiebreak`] chain ending in a seeded lot;
//! - splitting a field into tables of k or k - 1 seats: [`table_sizes`];
//! - seating: [`swiss`], [`round_robin`], [`arena`], and knockout stages
//!   ([`advancing`], [`snake`], [`plan`]), with pins and forbids
//!   ([`Constraints`]) and the [`History`] of earlier tables.
//!
//! `docs/leagues.md` says what each format guarantees.
//!
//! ```
//! use skit_league::*;
//!
//! let field: Vec<PlayerId> = (1..=9).map(PlayerId).collect();
//! let mut history = History::new();
//! let mut results = Vec::new();
//! for round in 1..=3 {
//!     let seated = swiss(SwissRequest {
//!         ranking: &field,
//!         seats: 3,
//!         history: &history,
//!         constraints: &Constraints::default(),
//!         seed: Seed(42),
//!         round,
//!         budget: 100_000,
//!     })?;
//!     assert_eq!(seated.repeat_limit, 0); // nobody meets twice in three rounds
//!     for table in seated.tables {
//!         history.record(&table);
//!         // Seat 0 first, seat 2 the skitgubbe.
//!         results.push(TableResult::new(table, vec![1, 2, 3], Some(2))?);
//!     }
//! }
//! let entrants: Vec<Entrant> = field.iter().map(|&player| Entrant { player, rating: 1500 }).collect();
//! let scoring = Scoring { chain: vec![Tiebreak::SonnebornBerger], spread: 200, seed: Seed(42) };
//! let table = standings(&entrants, &results, &scoring)?;
//! assert_eq!(table.len(), 9);
//! assert!(table.windows(2).all(|w| w[0].score >= w[1].score));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod arena;
mod constraints;
mod design;
mod elimination;
mod equitable;
mod error;
mod field;
mod history;
mod player;
mod points;
mod positions;
mod record;
mod result;
mod round_robin;
mod search;
mod seed;
mod split;
mod standings;
mod swiss;
mod tiebreak;

pub use arena::{ArenaParams, ArenaSeating, Waiting, arena};
pub use constraints::{ConstraintError, Constraints};
pub use elimination::{PlanError, PlannedStage, Stage, advancing, plan, snake};
pub use error::PairingError;
pub use history::History;
pub use player::{PlayerId, Table};
pub use points::{Points, placement_points};
pub use record::Record;
pub(crate) use record::records;
pub use result::{ResultError, TableResult};
pub use round_robin::{RoundRobinRequest, Schedule, ScheduleSource, round_robin};
pub use seed::Seed;
pub use split::{SplitError, table_sizes};
pub use standings::{Entrant, Scoring, Standing, StandingsError, standings};
pub use swiss::{SwissRequest, SwissRound, swiss};
pub use tiebreak::Tiebreak;

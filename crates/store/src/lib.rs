//! The durable home of Skitgubbe games: each game is an append-only event
//! log, next to the account, game and seat tables the lobby reads.
//!
//! Two backends behind one [`Store`]: Postgres for several service
//! instances, and an embedded SQLite file (the default) so the service runs
//! with no database server. Event payloads are opaque JSON; the rules live
//! in the engine, not here.
//!
//! ```no_run
//! # async fn demo() -> Result<(), skit_store::Error> {
//! use skit_store::{NewEvent, Store};
//!
//! let store = Store::connect("sqlite://skitgubbe.db?mode=rwc").await?;
//! # let (game_id, last) = (todo!(), 0);
//! // Optimistic concurrency: append after the last event we have seen.
//! match store.append(game_id, last + 1, &[NewEvent::new("played", serde_json::json!({}))]).await {
//!     Ok(stored) => println!("stored {} events", stored.len()),
//!     Err(skit_store::Error::Conflict { current_version }) => println!("re-read from {current_version}"),
//!     Err(e) => return Err(e),
//! }
//! # Ok(())
//! # }
//! ```

mod account;
mod account_request;
mod account_search;
mod accounts;
mod admin;
mod append;
mod audit;
mod batch;
mod bot_games;
mod clock;
mod credential;
mod credentials;
mod database_url;
mod db;
mod devices;
mod dialect;
mod divisions;
mod error;
mod event;
mod event_log;
mod exports;
mod game;
mod group_commit;
mod held;
mod holdings;
mod identities;
mod languages;
mod lobby;
mod name_rules;
mod people;
mod pool;
mod postgres;
mod rating_update;
mod ratings;
mod request_id;
mod revocations;
mod rows;
mod seasons;
mod sql;
mod sqlite;
mod store;
#[cfg(feature = "testing")]
pub mod testing;
mod tickets;
mod to_act;
mod tournaments;
mod turns;

pub use account::{Account, AccountId, AccountKind, AccountStatus, NewAccount, token_hash};
pub use account_request::AccountRequest;
pub use account_search::{AccountQuery, GameCounts};
pub use admin::{PasswordReset, Voided};
pub use append::{AppendRequest, AppendResults};
pub use audit::{AuditEntry, AuditFilter, NewAudit};
pub use bot_games::BOT_GAMES_WINDOW;
pub use credential::{
    Credential, CredentialId, CredentialKind, NewCredential, RefreshRefusal, Scope,
};
pub use credentials::SessionSummary;
pub use database_url::DatabaseUrl;
pub use divisions::{Arrival, DivisionMember, DivisionPlace};
pub use error::Error;
pub use event::{Appended, NewEvent, StoredEvent};
pub use exports::{ExportFilter, Finished, FinishedAfter, TOURNAMENT_REQUEST_PREFIX};
pub use game::{Game, GameId, GameStatus, Joined, NewGame, Seed};
pub use group_commit::recorded as metrics;
pub use group_commit::{DEFAULT_MAX_BATCH, GroupCommit};
pub use holdings::GameQuotas;
pub use identities::Identity;
pub use name_rules::Rekeyed;
pub use people::Registration;
pub use pool::PoolSettings;
pub use rating_update::Placed;
pub use ratings::{Rating, RatingChange, Skill, Standing};
pub use revocations::Revocation;
pub use seasons::{
    CreatedSeason, DivisionRules, NewSeason, Season, SeasonRating, SeasonStanding, SeasonTrack,
};
pub use store::Store;
pub use tickets::{Enqueued, MatchSeat, NewTicket, PlannedMatch, Ticket, TicketId, TicketState};
pub use to_act::ToAct;
pub use tournaments::{
    CreatedTournament, NewTournament, TablePhase, Tournament, TournamentChange, TournamentEntry,
    TournamentEventRow, TournamentPhase, TournamentTable,
};
pub use turns::{Listed, Listing, PageAfter};

/// Notices a subscriber may fall behind by before it sees `Lagged`.
const NOTICE_BUFFER: usize = 1024;

//! Planned matches: a table the matchmaker has formed, recorded with its
//! tickets before the game is created, so a crash between the two is
//! finished (or undone) by whoever looks next. The match id is the
//! CreateGame request id.

use serde_json::Value;
use sqlx::types::Json;
use time::OffsetDateTime;

use super::ticket::TicketId;
use crate::db::Params;
use crate::{AccountId, Error, Store, rows};

/// One seat of a planned match: a ticket's owner, or a bot (no ticket).
#[derive(Debug, Clone, PartialEq)]
pub struct MatchSeat {
    pub account_id: AccountId,
    pub ticket: Option<TicketId>,
}

/// A table to create: its seats in order and how.
#[derive(Debug, Clone, PartialEq)]
pub struct PlannedMatch {
    /// Also the CreateGame request id.
    pub id: String,
    /// The rules to create the game with (opaque to the store).
    pub rules: Value,
    pub rated: bool,
    pub seats: Vec<MatchSeat>,
}

#[derive(Debug, sqlx::FromRow)]
struct MatchRow {
    id: String,
    rules: Json<Value>,
    rated: bool,
    seats: Json<Vec<(i64, Option<String>)>>,
}

impl TryFrom<MatchRow> for PlannedMatch {
    type Error = Error;

    fn try_from(r: MatchRow) -> Result<Self, Error> {
        let seats = r
            .seats
            .0
            .into_iter()
            .map(|(account, ticket)| {
                let ticket = ticket
                    .map(|t| t.parse::<TicketId>())
                    .transpose()
                    .map_err(|_| Error::Corrupt(format!("match {} ticket id", r.id)))?;
                Ok(MatchSeat {
                    account_id: AccountId(account),
                    ticket,
                })
            })
            .collect::<Result<_, Error>>()?;
        Ok(Self {
            id: r.id,
            rules: r.rules.0,
            rated: r.rated,
            seats,
        })
    }
}

const INSERT_MATCH: &str = "INSERT INTO matches (id, rules, rated, seats, state, planned_at, \
     updated_at) VALUES ($1, $2, $3, $4, 'planned', $5, $5)";

/// The claim: only a ticket that is queued and unclaimed is taken.
const CLAIM: &str = "UPDATE tickets SET match_id = $1, seat = $2, updated_at = $3 \
     WHERE id = $4 AND state = 'queued' AND match_id IS NULL";

const CONFIRM_MATCH: &str = "UPDATE matches SET state = 'created', game_id = $2, updated_at = $3 \
     WHERE id = $1 AND state = 'planned'";

const CONFIRM_TICKETS: &str = "UPDATE tickets SET state = 'matched', game_id = $2, updated_at = $3 \
     WHERE match_id = $1 AND state = 'queued'";

const ABANDON_MATCH: &str = "UPDATE matches SET state = 'abandoned', updated_at = $2 \
     WHERE id = $1 AND state = 'planned'";

const RELEASE_TICKETS: &str = "UPDATE tickets SET match_id = NULL, seat = NULL, updated_at = $2 \
     WHERE match_id = $1 AND state = 'queued'";

const PLANNED_BEFORE: &str = "SELECT id, rules, rated, seats FROM matches \
     WHERE state = 'planned' AND planned_at <= $1 ORDER BY planned_at, id";

fn seats_json(seats: &[MatchSeat]) -> Json<Vec<(i64, Option<String>)>> {
    Json(
        seats
            .iter()
            .map(|s| (s.account_id.0, s.ticket.map(|t| t.to_string())))
            .collect(),
    )
}

impl Store {
    /// Records the match and claims its tickets, all or nothing. `false`
    /// (and nothing stored) when any ticket is no longer waiting: another
    /// matchmaker claimed it, or its owner cancelled it.
    #[tracing::instrument(skip_all, fields(match_id = %planned.id))]
    pub async fn plan_match(&self, planned: &PlannedMatch) -> Result<bool, Error> {
        let now = rows::now();
        let mut tx = self.db.begin().await?;
        let params = (
            &planned.id,
            Json(&planned.rules),
            planned.rated,
            seats_json(&planned.seats),
            now,
        );
        tx.execute(INSERT_MATCH, params).await?;
        for (seat, s) in planned.seats.iter().enumerate() {
            let Some(ticket) = s.ticket else { continue };
            let params = (
                &planned.id,
                rows::seat_to_db(seat)?,
                now,
                ticket.to_string(),
            );
            if tx.execute(CLAIM, params).await? != 1 {
                tracing::debug!(ticket_id = %ticket, "ticket no longer waiting");
                tx.rollback().await?;
                return Ok(false);
            }
        }
        tx.commit().await?;
        Ok(true)
    }

    /// The game exists: its tickets become matched. Idempotent.
    #[tracing::instrument(skip(self))]
    pub async fn confirm_match(&self, match_id: &str, game_id: &str) -> Result<(), Error> {
        let statements = [CONFIRM_MATCH, CONFIRM_TICKETS];
        self.settle(statements, (match_id, game_id, rows::now()))
            .await
    }

    /// The game cannot be created: the match is dropped and its tickets
    /// wait again. Idempotent.
    #[tracing::instrument(skip(self))]
    pub async fn abandon_match(&self, match_id: &str) -> Result<(), Error> {
        let statements = [ABANDON_MATCH, RELEASE_TICKETS];
        self.settle(statements, (match_id, rows::now())).await
    }

    /// Updates the match and its tickets in one transaction, both
    /// statements with the same parameters.
    async fn settle(
        &self,
        statements: [&'static str; 2],
        params: impl Params<'_> + Copy,
    ) -> Result<(), Error> {
        let mut tx = self.db.begin().await?;
        for sql in statements {
            tx.execute(sql, params).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Matches still planned that were planned at or before `before`,
    /// oldest first: the ones to finish after a crash.
    pub async fn planned_matches(
        &self,
        before: OffsetDateTime,
    ) -> Result<Vec<PlannedMatch>, Error> {
        let rows: Vec<MatchRow> = self.db.fetch_all(PLANNED_BEFORE, (before,)).await?;
        rows.into_iter().map(TryInto::try_into).collect()
    }
}

//! A ticket row as both backends return it, and its checked conversion.

use serde_json::Value;
use sqlx::FromRow;
use sqlx::types::Json;
use time::OffsetDateTime;

use super::ticket::{Ticket, TicketId, TicketState};
use crate::{AccountId, Error, rows};

/// `SELECT` of every ticket column and its account's owner group (see
/// [`crate::Account::owner_group`]), then `$filter` (a string literal).
macro_rules! select_tickets {
    ($filter:literal) => {
        concat!(
            "SELECT id, account_id, guest, rules, ruleset_key, player_counts, allow_bots, \
             rating, request_id, state, match_id, game_id, seat, created_at, updated_at, \
             (SELECT COALESCE(a.owner_id, a.id) FROM accounts a \
              WHERE a.id = tickets.account_id) AS owner_group \
             FROM tickets ",
            $filter
        )
    };
}
pub(crate) use select_tickets;

#[derive(Debug, FromRow)]
pub(crate) struct TicketRow {
    id: String,
    account_id: i64,
    guest: bool,
    rules: Json<Value>,
    ruleset_key: String,
    player_counts: Json<Vec<u32>>,
    allow_bots: bool,
    rating: f64,
    request_id: Option<String>,
    state: String,
    match_id: Option<String>,
    game_id: Option<String>,
    seat: Option<i32>,
    created_at: OffsetDateTime,
    updated_at: OffsetDateTime,
    owner_group: Option<i64>,
}

impl TryFrom<TicketRow> for Ticket {
    type Error = Error;

    fn try_from(r: TicketRow) -> Result<Self, Error> {
        Ok(Self {
            id: r
                .id
                .parse::<TicketId>()
                .map_err(|_| Error::Corrupt(format!("ticket id {:?}", r.id)))?,
            account_id: AccountId(r.account_id),
            owner_group: AccountId(r.owner_group.unwrap_or(r.account_id)),
            guest: r.guest,
            rules: r.rules.0,
            ruleset_key: r.ruleset_key,
            player_counts: r.player_counts.0,
            allow_bots: r.allow_bots,
            rating: r.rating,
            request_id: r.request_id,
            state: TicketState::parse(&r.state)
                .ok_or_else(|| Error::Corrupt(format!("ticket state {:?}", r.state)))?,
            match_id: r.match_id,
            game_id: r.game_id,
            seat: r.seat.map(rows::seat_from_db).transpose()?,
            created_at: r.created_at,
            updated_at: r.updated_at,
        })
    }
}

//! Stored tickets to API messages, and a ticket's rules to and from their
//! stored form.

use serde_json::{Value, json};
use skit_api::timestamp;
use skit_proto::v1::{self, TicketState};
use skit_store::Ticket;

/// The stored form of a Rules message: its protobuf JSON.
pub fn rules_to_store(rules: &v1::Rules) -> Value {
    serde_json::to_value(rules).unwrap_or_else(|_| json!({}))
}

/// A stored Rules message back; a corrupt one is the plain preset.
pub fn rules_from_store(value: &Value) -> v1::Rules {
    serde_json::from_value(value.clone()).unwrap_or_else(|error| {
        tracing::error!(%error, "stored rules unreadable");
        v1::Rules::default()
    })
}

fn state(t: &Ticket) -> TicketState {
    match t.state {
        skit_store::TicketState::Queued => TicketState::Queued,
        skit_store::TicketState::Matched => TicketState::Matched,
        skit_store::TicketState::Cancelled => TicketState::Cancelled,
    }
}

/// The API's view of a ticket. A ticket claimed by a planned match is still
/// QUEUED, with no game or seat, until the game exists.
pub fn ticket(t: &Ticket) -> v1::Ticket {
    let matched = t.state == skit_store::TicketState::Matched;
    v1::Ticket {
        ticket_id: t.id.to_string(),
        account_id: t.account_id.0.to_string(),
        rules: Some(rules_from_store(&t.rules)),
        ruleset_key: t.ruleset_key.clone(),
        player_counts: t.player_counts.clone(),
        allow_bots: t.allow_bots,
        state: state(t).into(),
        created_at: Some(timestamp(t.created_at)),
        game_id: t.game_id.clone().filter(|_| matched),
        seat: t.seat.filter(|_| matched),
        updated_at: Some(timestamp(t.updated_at)),
        rating: t.rating,
    }
}

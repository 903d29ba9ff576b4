//! The events a change reports, numbered on from the tournament's latest,
//! so they are written in the change's own transaction without a gap.

use serde_json::Value;
use skit_proto::v1::{Standings, TournamentEvent, TournamentEventKind, TournamentTable};
use skit_store::Tournament;
use time::OffsetDateTime;

use crate::convert;

/// Events for one change to one tournament.
#[derive(Debug)]
pub struct Events {
    tournament_id: String,
    next: u64,
    bodies: Vec<Value>,
}

impl Events {
    /// Events after `t`'s latest.
    pub fn after(t: &Tournament) -> Self {
        Self {
            tournament_id: t.id.clone(),
            next: t.sequence + 1,
            bodies: Vec::new(),
        }
    }

    fn push(&mut self, event: TournamentEvent) {
        let body = serde_json::to_value(&event).unwrap_or(Value::Null);
        self.bodies.push(body);
        self.next += 1;
    }

    fn event(&self, kind: TournamentEventKind, t: &Tournament) -> TournamentEvent {
        TournamentEvent {
            tournament_id: self.tournament_id.clone(),
            sequence: self.next,
            kind: kind as i32,
            time: Some(skit_api::timestamp(OffsetDateTime::now_utc())),
            round: t.round,
            state: convert::state(t.phase) as i32,
            ..Default::default()
        }
    }

    /// `t` (as it is after the change) entered its phase.
    pub fn state_changed(&mut self, t: &Tournament) {
        let mut event = self.event(TournamentEventKind::StateChanged, t);
        event.reason = t.reason.clone();
        self.push(event);
    }

    pub fn tables(
        &mut self,
        kind: TournamentEventKind,
        t: &Tournament,
        tables: Vec<TournamentTable>,
    ) {
        let mut event = self.event(kind, t);
        event.tables = tables;
        self.push(event);
    }

    /// The standings as they are after the change; their sequence is this
    /// event's own.
    pub fn standings(&mut self, t: &Tournament, mut standings: Standings) {
        let mut event = self.event(TournamentEventKind::StandingsChanged, t);
        standings.sequence = self.next;
        event.standings = Some(standings);
        self.push(event);
    }

    pub fn into_bodies(self) -> Vec<Value> {
        self.bodies
    }
}

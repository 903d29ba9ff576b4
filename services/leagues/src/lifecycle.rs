//! The changes that move a tournament on, as pure functions of what is
//! stored: starting, seating the next round, recording a table's result,
//! ending. Each returns the whole [`TournamentChange`], events included,
//! for the store to apply all or nothing.

use skit_league::table_sizes;
use skit_proto::v1::TournamentEventKind;
use skit_store::{
    TablePhase, Tournament, TournamentChange, TournamentEntry, TournamentPhase, TournamentTable,
};

use crate::convert;
use crate::events::Events;
use crate::pairing::{Seating, field, next_round, standings_of};
use crate::spec::Spec;

/// What is stored of one tournament, read together.
#[derive(Debug, Clone)]
pub struct Snapshot {
    pub tournament: Tournament,
    pub spec: Spec,
    pub entries: Vec<TournamentEntry>,
    pub tables: Vec<TournamentTable>,
}

impl Snapshot {
    pub fn seating(&self) -> Seating {
        Seating::from_value(&self.tournament.constraints)
    }

    /// The standings message over `tables`, at `t`.
    fn standings(&self, t: &Tournament, tables: &[TournamentTable]) -> skit_proto::v1::Standings {
        let rows = standings_of(&self.spec, &self.entries, tables).unwrap_or_else(|error| {
            tracing::error!(tournament_id = %t.id, %error, "standings cannot be computed");
            Vec::new()
        });
        convert::standings(t, &rows)
    }

    /// The tables of the round seated last.
    pub fn current(&self) -> impl Iterator<Item = &TournamentTable> {
        let round = self.tournament.round;
        self.tables.iter().filter(move |t| t.round == round)
    }

    /// Registration closes: round 1 is seated, or the tournament is
    /// terminated if its field cannot be seated.
    pub fn start(&self) -> TournamentChange {
        let players = field(&self.entries).len();
        let seats = self.spec.seats as usize;
        if let Err(e) = table_sizes(players, seats) {
            return self.end(
                TournamentPhase::Terminated,
                format!("too few entrants to start: {players} registered ({e})"),
            );
        }
        if let Err(e) = Seating::check(&self.seating(), &self.field_accounts(), self.spec.seats) {
            return self.end(
                TournamentPhase::Terminated,
                format!("the seating constraints cannot hold: {e}"),
            );
        }
        let mut started = self.tournament.clone();
        started.phase = TournamentPhase::Running;
        let mut events = Events::after(&self.tournament);
        events.state_changed(&started);
        let mut change = self.seat(&started, events, 1);
        if change.phase.is_none() {
            change.phase = Some((TournamentPhase::Running, String::new()));
        }
        change
    }

    fn field_accounts(&self) -> Vec<skit_store::AccountId> {
        field(&self.entries).iter().map(|e| e.account_id).collect()
    }

    /// Seats `round` (after `events`), or ends the tournament if it cannot
    /// be seated.
    fn seat(&self, t: &Tournament, mut events: Events, round: u32) -> TournamentChange {
        match next_round(
            &self.spec,
            &self.entries,
            &self.tables,
            &self.seating(),
            round,
        ) {
            Ok(seated) => {
                let mut after = t.clone();
                after.round = round;
                let tables = seated.tables.iter().map(convert::table).collect();
                events.tables(TournamentEventKind::RoundSeated, &after, tables);
                TournamentChange {
                    round: Some(round),
                    new_tables: seated.tables,
                    events: events.into_bodies(),
                    ..Default::default()
                }
            }
            Err(e) => self.end(
                TournamentPhase::Terminated,
                format!("round {round} cannot be seated: {e}"),
            ),
        }
    }

    /// After the current round: the next one seated, or the tournament
    /// finished after its last. `None` while a table of the round plays.
    pub fn advance(&self) -> Option<TournamentChange> {
        let t = &self.tournament;
        if t.phase != TournamentPhase::Running
            || self
                .current()
                .any(|x| matches!(x.phase, TablePhase::Seated | TablePhase::Playing))
        {
            return None;
        }
        if t.round >= self.spec.rounds {
            return Some(self.end(TournamentPhase::Finished, String::new()));
        }
        Some(self.seat(t, Events::after(t), t.round + 1))
    }

    /// The tournament ends in `phase`: tables still seated or playing no
    /// longer count, and the standings are final.
    pub fn end(&self, phase: TournamentPhase, reason: String) -> TournamentChange {
        let mut ended = self.tournament.clone();
        ended.phase = phase;
        ended.reason = reason.clone();
        let voided: Vec<TournamentTable> = self
            .tables
            .iter()
            .filter(|x| matches!(x.phase, TablePhase::Seated | TablePhase::Playing))
            .map(|x| TournamentTable {
                phase: TablePhase::Void,
                ..x.clone()
            })
            .collect();
        let mut events = Events::after(&self.tournament);
        events.state_changed(&ended);
        let mut final_tables = self.tables.clone();
        for v in &voided {
            replace(&mut final_tables, v);
        }
        let mut standings = self.standings(&ended, &final_tables);
        standings.ended = true;
        events.standings(&ended, standings);
        TournamentChange {
            phase: Some((phase, reason)),
            updated_tables: voided,
            events: events.into_bodies(),
            ..Default::default()
        }
    }

    /// `table` changed (its game created, or over): stored, reported, and
    /// the standings reported again when it finished.
    pub fn table_changed(&self, table: TournamentTable) -> TournamentChange {
        let t = &self.tournament;
        let mut events = Events::after(t);
        let finished = matches!(table.phase, TablePhase::Over | TablePhase::Void);
        let kind = if finished {
            TournamentEventKind::TableFinished
        } else {
            TournamentEventKind::TableStarted
        };
        events.tables(kind, t, vec![convert::table(&table)]);
        if finished {
            let mut tables = self.tables.clone();
            replace(&mut tables, &table);
            let standings = self.standings(t, &tables);
            events.standings(t, standings);
        }
        TournamentChange {
            updated_tables: vec![table],
            events: events.into_bodies(),
            ..Default::default()
        }
    }
}

fn replace(tables: &mut [TournamentTable], new: &TournamentTable) {
    if let Some(old) = tables
        .iter_mut()
        .find(|x| x.round == new.round && x.table == new.table)
    {
        *old = new.clone();
    }
}

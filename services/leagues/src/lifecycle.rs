//! The changes that move a tournament on, as pure functions of what is
//! stored: starting, seating the next round, recording a table's result,
//! ending. Each returns the whole [`TournamentChange`], events included,
//! for the store to apply all or nothing.

use skit_league::{SplitError, table_sizes};
use skit_proto::v1::{TournamentEventKind, TournamentFormat};
use skit_store::{
    AccountId, TablePhase, Tournament, TournamentChange, TournamentEntry, TournamentPhase,
    TournamentTable,
};
use time::OffsetDateTime;

use crate::convert;
use crate::events::Events;
use crate::pairing::{Seating, continuous, continuous_round, field, next_round, standings_of};
use crate::spec::Spec;
use crate::validation::{self, HouseBot};

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
        convert::standings(t, &rows, &self.entries)
    }

    /// The tables of the round seated last.
    pub fn current(&self) -> impl Iterator<Item = &TournamentTable> {
        let round = self.tournament.round;
        self.tables.iter().filter(move |t| t.round == round)
    }

    /// The tables seated or in play, of any round.
    pub fn active(&self) -> impl Iterator<Item = &TournamentTable> {
        self.tables
            .iter()
            .filter(|t| matches!(t.phase, TablePhase::Seated | TablePhase::Playing))
    }

    /// When an arena stops seating: its start plus its duration.
    pub fn ends_at(&self) -> Option<OffsetDateTime> {
        let minutes = self.spec.duration_minutes;
        let started = self.tournament.started_at?;
        (self.spec.format() == TournamentFormat::Arena)
            .then(|| started + time::Duration::minutes(i64::from(minutes)))
    }

    /// Registration closes: round 1 is seated, or the tournament is
    /// terminated if its field cannot be seated.
    pub fn start(&self, now: OffsetDateTime) -> TournamentChange {
        let players = field(&self.entries).len();
        let seats = self.spec.seats as usize;
        // A ladder may start empty: bots join it while it runs.
        let ladder = self.spec.format() == TournamentFormat::Ladder;
        if let Err(e) = table_sizes(players, seats)
            .map(|_| ())
            .or_else(|e| match ladder {
                true => Ok(()),
                false => Err(e),
            })
        {
            let why = match e {
                SplitError::TooFew { min, .. } => format!(
                    "too few entrants to start: {players} registered, and a table needs {min}"
                ),
                other => format!("cannot start: {other}"),
            };
            return self.end(TournamentPhase::Terminated, why);
        }
        if self.spec.format() == TournamentFormat::Duplicate && !players.is_multiple_of(seats) {
            return self.end(
                TournamentPhase::Terminated,
                format!(
                    "a duplicate event seats every group at a full table of {seats}: \
                     {players} entrants is not a multiple of {seats}"
                ),
            );
        }
        if self.spec.format() == TournamentFormat::Elimination {
            let stages: Vec<_> = self.spec.stages.iter().map(|s| s.league()).collect();
            if let Err(e) = skit_league::plan(players, seats, &stages) {
                return self.end(
                    TournamentPhase::Terminated,
                    format!("the stages do not fit {players} entrants: {e}"),
                );
            }
        }
        let checked = self
            .seating()
            .check(&self.entries, &self.field_accounts(), self.spec.seats);
        if let Err(e) = checked {
            return self.end(
                TournamentPhase::Terminated,
                format!("the seating constraints cannot hold: {e}"),
            );
        }
        let mut started = self.tournament.clone();
        started.phase = TournamentPhase::Running;
        started.started_at = Some(now);
        let mut events = Events::after(&self.tournament);
        events.state_changed(&started);
        if continuous(&self.spec) {
            // Tables are seated as players free up, from the next step on.
            return TournamentChange {
                phase: Some((TournamentPhase::Running, String::new())),
                started_at: Some(now),
                events: events.into_bodies(),
                ..Default::default()
            };
        }
        let mut change = self.seat(&started, events, 1);
        if change.phase.is_none() {
            change.phase = Some((TournamentPhase::Running, String::new()));
            change.started_at = Some(now);
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
    /// `house` is the service's house bots, for a ladder's validation
    /// games (read only when [`Self::owes_validation`]).
    pub fn advance(&self, now: OffsetDateTime, house: &[HouseBot]) -> Option<TournamentChange> {
        let t = &self.tournament;
        if t.phase != TournamentPhase::Running {
            return None;
        }
        if continuous(&self.spec) {
            return self.advance_continuous(now, house);
        }
        if self
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

    /// An arena or ladder: new tables for the players free now; an arena
    /// past its end seats nobody and finishes once its last table has.
    fn advance_continuous(
        &self,
        now: OffsetDateTime,
        house: &[HouseBot],
    ) -> Option<TournamentChange> {
        let t = &self.tournament;
        if self.ends_at().is_some_and(|end| now >= end) {
            return match self.active().next() {
                Some(_) => None,
                None => Some(self.end(TournamentPhase::Finished, String::new())),
            };
        }
        let wave = t.round + 1;
        let seated = continuous_round(
            &self.spec,
            &self.entries,
            &self.tables,
            &self.seating(),
            house,
            wave,
        )?;
        let mut after = t.clone();
        after.round = wave;
        let mut events = Events::after(t);
        let tables = seated.tables.iter().map(convert::table).collect();
        events.tables(TournamentEventKind::RoundSeated, &after, tables);
        Some(TournamentChange {
            round: Some(wave),
            new_tables: seated.tables,
            events: events.into_bodies(),
            ..Default::default()
        })
    }

    /// Whether a running ladder has a bot free to seat that still owes
    /// validation games: only then are the house bots needed.
    pub fn owes_validation(&self) -> bool {
        self.tournament.phase == TournamentPhase::Running
            && self.spec.format() == TournamentFormat::Ladder
            && field(&self.entries).iter().any(|e| {
                validation::owes(&self.spec, &self.tables, e)
                    && !self.active().any(|t| t.seats.contains(&e.account_id))
            })
    }

    /// A ladder bot that lost a validation game on time, or its first
    /// table (when it was seated with the field, for want of house bots
    /// or with validation games off), failed validation: it leaves the
    /// ladder.
    pub fn failed_validation(
        &self,
        table: &TournamentTable,
        timed_out: bool,
    ) -> Option<TournamentEntry> {
        if self.spec.format() != TournamentFormat::Ladder || !timed_out {
            return None;
        }
        let loser: AccountId = *table.seats.get(table.loser? as usize)?;
        let before = self
            .tables
            .iter()
            .filter(|t| t.phase == TablePhase::Over && t.seats.contains(&loser))
            .count();
        let entry = self.entries.iter().find(|e| e.account_id == loser)?;
        (table.validation || before == 0).then(|| TournamentEntry {
            withdrawn: true,
            ..entry.clone()
        })
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
    pub fn table_changed(
        &self,
        table: TournamentTable,
        leaves: Option<TournamentEntry>,
    ) -> TournamentChange {
        let t = &self.tournament;
        let mut events = Events::after(t);
        let finished = matches!(table.phase, TablePhase::Over | TablePhase::Void);
        let kind = if finished {
            TournamentEventKind::TableFinished
        } else {
            TournamentEventKind::TableStarted
        };
        let mut tables = self.tables.clone();
        replace(&mut tables, &table);
        events.tables(
            kind,
            t,
            vec![convert::table_in(&self.spec, &tables, &table)],
        );
        if finished {
            let standings = self.standings(t, &tables);
            events.standings(t, standings);
        }
        TournamentChange {
            updated_tables: vec![table],
            entry: leaves,
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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use serde_json::json;
    use skit_store::AccountId;
    use time::macros::datetime;

    use super::*;
    use crate::spec::{Conditions, Spec};

    const START: OffsetDateTime = datetime!(2026-11-01 18:00 UTC);

    fn arena(tables: Vec<TournamentTable>) -> Snapshot {
        let spec = Spec {
            name: "arena".into(),
            rules: json!({ "preset": "skitgubbe" }),
            ruleset_key: "skitgubbe".into(),
            format: TournamentFormat::Arena as i32,
            seats: 2,
            rounds: 0,
            rated: false,
            time_control: None,
            conditions: Conditions::default(),
            entry_code: String::new(),
            tiebreaks: Vec::new(),
            seed: 1,
            duration_minutes: 10,
            stages: Vec::new(),
            deal_secret: None,
            validation_games: None,
        };
        let entries = (1..=4)
            .map(|a| TournamentEntry {
                account_id: AccountId(a),
                rating: 0.0,
                withdrawn: false,
                registered_at: START,
                name: format!("p{a}"),
                owner: AccountId(a),
            })
            .collect();
        let round = tables.iter().map(|t| t.round).max().unwrap_or(0);
        Snapshot {
            tournament: Tournament {
                id: "t".into(),
                spec: spec.to_value(),
                phase: TournamentPhase::Running,
                round,
                reason: String::new(),
                revision: 1,
                sequence: 1,
                starts_at: None,
                started_at: Some(START),
                constraints: json!({}),
                created_by: AccountId(99),
                request_id: None,
                created_at: START,
            },
            spec,
            entries,
            tables,
        }
    }

    fn minutes(n: i64) -> OffsetDateTime {
        START + time::Duration::minutes(n)
    }

    fn with_phase(tables: &[TournamentTable], phase: TablePhase) -> Vec<TournamentTable> {
        let places = Some(vec![1, 2]);
        tables
            .iter()
            .map(|t| TournamentTable {
                phase,
                places: places.clone().filter(|_| phase == TablePhase::Over),
                loser: Some(1).filter(|_| phase == TablePhase::Over),
                ..t.clone()
            })
            .collect()
    }

    #[test]
    fn two_entrants_of_one_owner_never_share_a_table() {
        // 2 is a bot run by 1, and 4 a bot run by 3: each of the two
        // tables of two holds one of each owner, in a Swiss round as in an
        // arena wave, whatever the seed.
        for (format, seed) in [(TournamentFormat::Swiss, 1), (TournamentFormat::Arena, 1)]
            .into_iter()
            .chain((2..40).map(|seed| (TournamentFormat::Swiss, seed)))
        {
            let mut snapshot = arena(Vec::new());
            snapshot.spec.format = format as i32;
            snapshot.spec.rounds = 3;
            snapshot.spec.seed = seed;
            snapshot.entries[1].owner = AccountId(1);
            snapshot.entries[3].owner = AccountId(3);
            let round = snapshot.advance(minutes(1), &[]).unwrap();
            assert_eq!(round.new_tables.len(), 2, "{format:?} {seed}");
            for table in &round.new_tables {
                let owners: Vec<i64> = table.seats.iter().map(|a| (a.0 + 1) / 2).collect();
                assert_ne!(owners[0], owners[1], "{format:?} {seed}: {:?}", table.seats);
            }
        }
    }

    #[test]
    fn an_arena_seats_the_free_players_until_its_end_then_finishes() {
        let first = arena(Vec::new()).advance(minutes(1), &[]).unwrap();
        assert_eq!(first.round, Some(1));
        assert_eq!(first.new_tables.len(), 2, "four players at tables of two");
        // While everyone plays, nobody is free to seat.
        let playing = with_phase(&first.new_tables, TablePhase::Playing);
        assert_eq!(arena(playing.clone()).advance(minutes(2), &[]), None);
        // Finished before the end: all four are seated again, in wave 2.
        let over = with_phase(&first.new_tables, TablePhase::Over);
        let second = arena(over.clone()).advance(minutes(3), &[]).unwrap();
        assert_eq!((second.round, second.new_tables.len()), (Some(2), 2));
        // After the end: nobody is seated; it finishes once no table plays.
        assert_eq!(arena(playing).advance(minutes(11), &[]), None);
        let finished = arena(over).advance(minutes(11), &[]).unwrap();
        assert_eq!(
            finished.phase.map(|(p, _)| p),
            Some(TournamentPhase::Finished)
        );
        assert!(finished.new_tables.is_empty());
    }
}

//! Stored tournaments, entries and tables as API messages.

use skit_api::timestamp;
use skit_league::Standing;
use skit_proto::v1::{self, TableState, TournamentState};
use skit_store::{TablePhase, Tournament, TournamentEntry, TournamentPhase, TournamentTable};

use crate::pairing::Seating;
use crate::spec::Spec;

pub fn state(phase: TournamentPhase) -> TournamentState {
    match phase {
        TournamentPhase::Registering => TournamentState::Registering,
        TournamentPhase::Running => TournamentState::Running,
        TournamentPhase::Paused => TournamentState::Paused,
        TournamentPhase::Finished => TournamentState::Finished,
        TournamentPhase::Terminated => TournamentState::Terminated,
    }
}

pub fn phase(state: TournamentState) -> Option<TournamentPhase> {
    Some(match state {
        TournamentState::Registering => TournamentPhase::Registering,
        TournamentState::Running => TournamentPhase::Running,
        TournamentState::Paused => TournamentPhase::Paused,
        TournamentState::Finished => TournamentPhase::Finished,
        TournamentState::Terminated => TournamentPhase::Terminated,
        TournamentState::Unspecified => return None,
    })
}

fn groups(groups: impl Iterator<Item = Vec<i64>>) -> Vec<v1::SeatGroup> {
    groups
        .map(|g| v1::SeatGroup {
            account_ids: g.iter().map(ToString::to_string).collect(),
        })
        .collect()
}

pub fn tournament(t: &Tournament, spec: &Spec, entrants: usize) -> v1::Tournament {
    let seating = Seating::from_value(&t.constraints);
    v1::Tournament {
        tournament_id: t.id.clone(),
        name: spec.name.clone(),
        rules: Some(spec.rules_message()),
        format: spec.format,
        seats: spec.seats,
        rounds: spec.rounds,
        rated: spec.rated,
        time_control: spec.time_control_message(),
        starts_at: t.starts_at.map(timestamp),
        conditions: Some(spec.conditions.message()),
        entry_code_required: !spec.entry_code.is_empty(),
        tiebreaks: spec.tiebreaks.clone(),
        seed: spec.seed.to_string(),
        state: state(t.phase) as i32,
        round: t.round,
        entrants: u32::try_from(entrants).unwrap_or(u32::MAX),
        reason: t.reason.clone(),
        sequence: t.sequence,
        created_at: Some(timestamp(t.created_at)),
        together: groups(seating.together.into_iter()),
        apart: groups(seating.apart.into_iter().map(|(a, b)| vec![a, b])),
        duration_minutes: spec.duration_minutes,
        stages: spec.stages.iter().map(|s| s.message()).collect(),
        started_at: t.started_at.map(timestamp),
        ends_at: t
            .started_at
            .filter(|_| spec.format() == v1::TournamentFormat::Arena)
            .map(|at| timestamp(at + time::Duration::minutes(i64::from(spec.duration_minutes)))),
        validation_games: spec.validation_games(),
    }
}

pub fn entry(tournament_id: &str, e: &TournamentEntry) -> v1::Entry {
    v1::Entry {
        tournament_id: tournament_id.to_owned(),
        account_id: e.account_id.0.to_string(),
        rating: e.rating,
        withdrawn: e.withdrawn,
        registered_at: Some(timestamp(e.registered_at)),
        name: e.name.clone(),
    }
}

pub fn table(t: &TournamentTable) -> v1::TournamentTable {
    let state = match t.phase {
        TablePhase::Seated => TableState::Seated,
        TablePhase::Playing => TableState::Playing,
        TablePhase::Over => TableState::Over,
        TablePhase::Void => TableState::Void,
    };
    v1::TournamentTable {
        round: t.round,
        table: t.table,
        account_ids: t.seats.iter().map(|a| a.0.to_string()).collect(),
        game_id: t.game_id.clone(),
        state: state as i32,
        places: t.places.clone().unwrap_or_default(),
        loser: t.loser,
        no_show: t.no_show.map(|a| a.0.to_string()),
        deal_seed: None,
        validation: t.validation,
    }
}

/// `t` among all of its tournament's `tables`: with its deal's seed once
/// the deal is over (a duplicate event's).
pub fn table_in(
    spec: &Spec,
    tables: &[TournamentTable],
    t: &TournamentTable,
) -> v1::TournamentTable {
    v1::TournamentTable {
        deal_seed: crate::duplicate::published(spec, tables, t),
        ..table(t)
    }
}

fn fraction(p: &skit_league::Points) -> String {
    p.to_string()
}

pub fn standing(s: &Standing, entries: &[TournamentEntry]) -> v1::StandingRow {
    let count = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
    v1::StandingRow {
        rank: count(s.rank),
        account_id: s.player.0.to_string(),
        score: fraction(&s.score),
        score_value: *s.score.numer() as f64 / *s.score.denom() as f64,
        tables: count(s.games),
        firsts: count(s.firsts),
        skitgubbes: count(s.skitgubbes),
        tiebreaks: s.tiebreaks.iter().map(fraction).collect(),
        name: entries
            .iter()
            .find(|e| u64::try_from(e.account_id.0).ok() == Some(s.player.0))
            .map(|e| e.name.clone())
            .unwrap_or_default(),
    }
}

/// Standings at `sequence`.
pub fn standings(t: &Tournament, rows: &[Standing], entries: &[TournamentEntry]) -> v1::Standings {
    v1::Standings {
        tournament_id: t.id.clone(),
        sequence: t.sequence,
        round: t.round,
        ended: t.phase.ended(),
        rows: rows.iter().map(|r| standing(r, entries)).collect(),
    }
}

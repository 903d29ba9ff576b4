//! Elimination events: who is still in before each round (the field
//! narrowed by each cut and knockout before it), how each round is seated
//! (Swiss rounds, knockout tables snake-seeded, one final table), and the
//! final order (how far each player got, the final table's places first),
//! all recomputed from the stored tables like every other round.

use std::collections::BTreeMap;

use skit_league::{
    Constraints, History, PairingError, PlayerId, Seed, Standing, SwissRequest, Table, TableResult,
    advancing, snake, swiss,
};
use skit_store::{TablePhase, TournamentEntry, TournamentTable};

use crate::scores::{field, player, points_standings};
use crate::spec::{Spec, StageSpec};

/// Search steps per repeat limit for a Swiss stage's round.
const BUDGET: u64 = 200_000;

/// Who is in before round `round`, best first, and the furthest stage
/// each entrant reached (its index).
pub struct Progress {
    pub alive: Vec<PlayerId>,
    pub reached: BTreeMap<PlayerId, usize>,
    /// The stage round `round` belongs to, and its index; `None` past the
    /// last.
    pub stage: Option<(usize, StageSpec)>,
}

/// The standings over the tables before `round`, best first.
fn order_before(
    spec: &Spec,
    entries: &[TournamentEntry],
    tables: &[TournamentTable],
    round: u32,
) -> Vec<PlayerId> {
    let earlier: Vec<TournamentTable> =
        tables.iter().filter(|t| t.round < round).cloned().collect();
    points_standings(spec, entries, &earlier)
        .map(|rows| rows.into_iter().map(|s| s.player).collect())
        .unwrap_or_default()
}

/// `players` in `order`, those it lacks last.
fn ranked(players: &[PlayerId], order: &[PlayerId]) -> Vec<PlayerId> {
    let mut out: Vec<PlayerId> = order
        .iter()
        .copied()
        .filter(|p| players.contains(p))
        .collect();
    let missing: Vec<PlayerId> = players
        .iter()
        .copied()
        .filter(|p| !order.contains(p))
        .collect();
    out.extend(missing);
    out
}

/// The finished tables of `round` as results.
fn results(tables: &[TournamentTable], round: u32) -> Vec<TableResult> {
    tables
        .iter()
        .filter(|t| t.round == round && t.phase == TablePhase::Over)
        .filter_map(|t| {
            let table = Table::new(t.seats.iter().map(|a| player(a.0)).collect());
            let places = t.places.clone()?.into_iter().map(|p| p as usize).collect();
            TableResult::new(table, places, t.loser.map(|l| l as usize)).ok()
        })
        .collect()
}

pub fn progress(
    spec: &Spec,
    entries: &[TournamentEntry],
    tables: &[TournamentTable],
    round: u32,
) -> Progress {
    let mut alive: Vec<PlayerId> = field(entries)
        .iter()
        .map(|e| player(e.account_id.0))
        .collect();
    let mut reached = BTreeMap::new();
    let mut first = 1;
    for (i, &stage) in spec.stages.iter().enumerate() {
        for &p in &alive {
            reached.insert(p, i);
        }
        let order = order_before(spec, entries, tables, first);
        alive = ranked(&alive, &order);
        if stage.rounds() > 0 && round < first + stage.rounds() {
            return Progress {
                alive,
                reached,
                stage: Some((i, stage)),
            };
        }
        match stage {
            StageSpec::Cut { top } => alive.truncate(top as usize),
            StageSpec::Knockout { advance } => {
                let after = order_before(spec, entries, tables, first + 1);
                alive = advancing(&results(tables, first), advance as usize, &after);
            }
            StageSpec::Swiss { .. } | StageSpec::FinalTable => {}
        }
        first += stage.rounds();
    }
    Progress {
        alive,
        reached,
        stage: None,
    }
}

/// Round `round`'s tables.
pub fn seat(
    spec: &Spec,
    entries: &[TournamentEntry],
    tables: &[TournamentTable],
    constraints: &Constraints,
    round: u32,
) -> Result<(Vec<Table>, u32), PairingError> {
    let now = progress(spec, entries, tables, round);
    let mut history = History::new();
    for t in tables
        .iter()
        .filter(|t| t.phase != TablePhase::Void && t.round < round)
    {
        history.record(&Table::new(t.seats.iter().map(|a| player(a.0)).collect()));
    }
    let seed = Seed(spec.seed);
    match now.stage {
        Some((_, StageSpec::Swiss { .. })) => {
            let seated = swiss(SwissRequest {
                ranking: &now.alive,
                seats: spec.seats as usize,
                history: &history,
                constraints,
                seed,
                round,
                budget: BUDGET,
            })?;
            Ok((seated.tables, seated.repeat_limit))
        }
        Some((i, StageSpec::Knockout { .. })) => {
            let stage = u32::try_from(i).unwrap_or(u32::MAX);
            Ok((
                snake(&now.alive, spec.seats as usize, &history, seed, stage)?,
                0,
            ))
        }
        Some((i, StageSpec::FinalTable)) => {
            let stage = u32::try_from(i).unwrap_or(u32::MAX);
            Ok((
                snake(&now.alive, now.alive.len(), &history, seed, stage)?,
                0,
            ))
        }
        Some((_, StageSpec::Cut { .. })) | None => Ok((Vec::new(), 0)),
    }
}

/// The standings in an elimination event's order: the furthest stage
/// first, the final table's places within it, then the points.
pub fn reorder(
    spec: &Spec,
    entries: &[TournamentEntry],
    tables: &[TournamentTable],
    rows: Vec<Standing>,
) -> Vec<Standing> {
    let now = progress(spec, entries, tables, u32::MAX);
    let final_round: u32 = spec.stages.iter().map(|s| s.rounds()).sum();
    let final_place = |p: PlayerId| -> usize {
        tables
            .iter()
            .filter(|t| t.round == final_round && t.phase == TablePhase::Over)
            .find_map(|t| {
                let seat = t.seats.iter().position(|a| player(a.0) == p)?;
                t.places.as_ref()?.get(seat).map(|&q| q as usize)
            })
            .unwrap_or(usize::MAX)
    };
    let ends_with_final = spec.stages.last() == Some(&StageSpec::FinalTable);
    let mut rows = rows;
    rows.sort_by_key(|s| {
        let reached = now.reached.get(&s.player).copied().unwrap_or(0);
        let place = if ends_with_final {
            final_place(s.player)
        } else {
            0
        };
        (std::cmp::Reverse(reached), place, s.rank)
    });
    for (i, row) in rows.iter_mut().enumerate() {
        row.rank = i + 1;
    }
    rows
}

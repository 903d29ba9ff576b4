//! Multi-table elimination and staged events. In a knockout stage the top
//! q of each table advance; players are seated across tables in snake
//! order of their standing (table 1, 2, ..., t, t, ..., 2, 1, ...) so the
//! strongest are spread. A staged event is a list of stages (Swiss rounds,
//! a cut to the top of the standings, knockout stages, a final table),
//! checked up front for whether each stage can seat its field.

use thiserror::Error;

use crate::{History, PlayerId, Seed, SplitError, Table, TableResult, table_sizes};

/// The players of a knockout stage's `results` who advance: the top `q`
/// of each table by place. Players level on the place at the cut are
/// taken in `order` (the standings going into the stage, best first).
pub fn advancing(results: &[TableResult], q: usize, order: &[PlayerId]) -> Vec<PlayerId> {
    let rank = |p: &PlayerId| order.iter().position(|o| o == p).unwrap_or(usize::MAX);
    let mut out = Vec::new();
    for result in results {
        let mut seats: Vec<usize> = (0..result.seats().len()).collect();
        seats.sort_by_key(|&s| (result.place(s), rank(&result.seats()[s])));
        out.extend(seats.into_iter().take(q).map(|s| result.seats()[s]));
    }
    out
}

/// Seats `ranked` (best first) at tables of `seats` or `seats - 1` in snake
/// order, positions balanced against `history`.
pub fn snake(
    ranked: &[PlayerId],
    seats: usize,
    history: &History,
    seed: Seed,
    stage: u32,
) -> Result<Vec<Table>, SplitError> {
    let sizes = table_sizes(ranked.len(), seats)?;
    let t = sizes.len();
    let mut tables: Vec<Vec<PlayerId>> = vec![Vec::new(); t];
    let mut lane = (0..t).chain((0..t).rev()).cycle();
    for &player in ranked {
        let table = lane
            .by_ref()
            .find(|&i| tables[i].len() < sizes[i])
            .unwrap_or(0);
        tables[table].push(player);
    }
    Ok(tables
        .iter()
        .enumerate()
        .map(|(i, players)| {
            crate::positions::seat(
                players,
                history,
                seed,
                "knockout",
                (u64::from(stage) << 8) | i as u64,
            )
        })
        .collect())
}

/// One stage of a staged event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Swiss rounds over the whole field.
    Swiss { rounds: u32 },
    /// The best `top` of the standings go on.
    Cut { top: usize },
    /// One round of tables; the top `advance` of each go on.
    Knockout { advance: usize },
    /// One table for everyone left; its result ends the event.
    FinalTable,
}

/// A stage as planned: how many play it at how many tables.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlannedStage {
    pub stage: Stage,
    pub players: usize,
    pub tables: Vec<usize>,
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PlanError {
    #[error("stage {stage}: {source}")]
    Split { stage: usize, source: SplitError },
    #[error("stage {stage}: a Swiss stage needs at least one round")]
    NoRounds { stage: usize },
    #[error("stage {stage}: a cut to {top} of {players} players must keep 2 to {players}")]
    Cut {
        stage: usize,
        top: usize,
        players: usize,
    },
    #[error(
        "stage {stage}: advancing {advance} of a table of {smallest} must leave someone out and keep someone"
    )]
    Advance {
        stage: usize,
        advance: usize,
        smallest: usize,
    },
    #[error("stage {stage}: a final table seats 2 to {seats} players, not {players}")]
    Final {
        stage: usize,
        players: usize,
        seats: usize,
    },
    #[error("an event ends with its final table, and only there")]
    NoFinal,
}

/// Checks `stages` for `players` at `seats`-seat tables and says who plays
/// each.
pub fn plan(
    players: usize,
    seats: usize,
    stages: &[Stage],
) -> Result<Vec<PlannedStage>, PlanError> {
    let finals = stages
        .iter()
        .filter(|s| matches!(s, Stage::FinalTable))
        .count();
    if finals != 1 || stages.last() != Some(&Stage::FinalTable) {
        return Err(PlanError::NoFinal);
    }
    let mut field = players;
    let mut out = Vec::new();
    for (i, &stage) in stages.iter().enumerate() {
        let split = |n| {
            table_sizes(n, seats).map_err(|source| PlanError::Split {
                stage: i + 1,
                source,
            })
        };
        let (tables, next) = match stage {
            Stage::Swiss { rounds: 0 } => return Err(PlanError::NoRounds { stage: i + 1 }),
            Stage::Swiss { .. } => (split(field)?, field),
            Stage::Cut { top } if top < 2 || top > field => {
                return Err(PlanError::Cut {
                    stage: i + 1,
                    top,
                    players: field,
                });
            }
            Stage::Cut { top } => (Vec::new(), top),
            Stage::Knockout { advance } => {
                let tables = split(field)?;
                let smallest = tables.iter().copied().min().unwrap_or(0);
                if advance == 0 || advance >= smallest {
                    return Err(PlanError::Advance {
                        stage: i + 1,
                        advance,
                        smallest,
                    });
                }
                let next = tables.len() * advance;
                (tables, next)
            }
            Stage::FinalTable if (2..=seats).contains(&field) => (vec![field], 0),
            Stage::FinalTable => {
                return Err(PlanError::Final {
                    stage: i + 1,
                    players: field,
                    seats,
                });
            }
        };
        out.push(PlannedStage {
            stage,
            players: field,
            tables,
        });
        field = next;
    }
    Ok(out)
}

//! Standings: players ordered by score, then by the operator's tiebreak
//! chain applied to those still level, then by the seeded lot, so that
//! every rank is distinct and recomputing from the same results and seed
//! gives the same order.

use std::collections::BTreeMap;

use thiserror::Error;

use crate::tiebreak::Field;
use crate::{PlayerId, Points, Record, Seed, TableResult, Tiebreak, records};

/// A player of the event and the rating the `Performance` tiebreak uses
/// for them as an opponent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entrant {
    pub player: PlayerId,
    pub rating: i64,
}

/// How an event ranks its players.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scoring {
    /// Applied in order after the score; each at most once.
    pub chain: Vec<Tiebreak>,
    /// Rating points for placing ahead of an opponent, in `Performance`.
    pub spread: i64,
    /// The event's seed: the last tiebreak is its lot.
    pub seed: Seed,
}

/// One line of the standings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Standing {
    /// 1-based, distinct.
    pub rank: usize,
    pub player: PlayerId,
    pub score: Points,
    pub games: usize,
    pub firsts: usize,
    pub skitgubbes: usize,
    /// The value of each tiebreak of the chain, in chain order; the
    /// head-to-head value is among the players level when it applied.
    pub tiebreaks: Vec<Points>,
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum StandingsError {
    #[error("player {0} sat at a table but is not an entrant")]
    NotAnEntrant(PlayerId),
    #[error("player {0} is entered twice")]
    EnteredTwice(PlayerId),
    #[error("tiebreak {0:?} appears twice in the chain")]
    RepeatedTiebreak(Tiebreak),
}

/// The standings of `entrants` after `results`.
pub fn standings(
    entrants: &[Entrant],
    results: &[TableResult],
    scoring: &Scoring,
) -> Result<Vec<Standing>, StandingsError> {
    for (i, t) in scoring.chain.iter().enumerate() {
        if scoring.chain[..i].contains(t) {
            return Err(StandingsError::RepeatedTiebreak(*t));
        }
    }
    let mut ratings = BTreeMap::new();
    for e in entrants {
        if ratings.insert(e.player, e.rating).is_some() {
            return Err(StandingsError::EnteredTwice(e.player));
        }
    }
    let players: Vec<PlayerId> = entrants.iter().map(|e| e.player).collect();
    let records = records(&players, results).map_err(StandingsError::NotAnEntrant)?;
    let field = Field {
        records: &records,
        results,
        ratings: &ratings,
        spread: scoring.spread,
    };
    let mut values: BTreeMap<PlayerId, Vec<Points>> = BTreeMap::new();
    let mut groups = split_by(vec![players], |p, _| records[&p].score);
    for &tiebreak in &scoring.chain {
        groups = split_by(groups, |p, group| {
            let v = tiebreak.value(&field, p, group);
            values.entry(p).or_default().push(v);
            v
        });
    }
    let order = groups.into_iter().flat_map(|mut group| {
        group.sort_by_key(|&p| std::cmp::Reverse(scoring.seed.lot(p)));
        group
    });
    Ok(order
        .enumerate()
        .map(|(i, player)| {
            let record: &Record = &records[&player];
            Standing {
                rank: i + 1,
                player,
                score: record.score,
                games: record.games,
                firsts: record.firsts,
                skitgubbes: record.skitgubbes,
                tiebreaks: values.remove(&player).unwrap_or_default(),
            }
        })
        .collect())
}

/// Each group ordered by `value` (highest first) and cut where it changes.
fn split_by(
    groups: Vec<Vec<PlayerId>>,
    mut value: impl FnMut(PlayerId, &[PlayerId]) -> Points,
) -> Vec<Vec<PlayerId>> {
    let mut out = Vec::new();
    for group in groups {
        let mut valued: Vec<(Points, PlayerId)> =
            group.iter().map(|&p| (value(p, &group), p)).collect();
        valued.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        let mut run: Vec<PlayerId> = Vec::new();
        let mut last: Option<Points> = None;
        for (v, p) in valued {
            if last.is_some_and(|l| l != v) {
                out.push(std::mem::take(&mut run));
            }
            last = Some(v);
            run.push(p);
        }
        if !run.is_empty() {
            out.push(run);
        }
    }
    out
}

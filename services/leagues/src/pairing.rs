//! A tournament's next round and its standings, as pure functions of what
//! is stored: the spec, the entries, the tables so far and the operator's
//! pins and forbids. The league crate does the pairing and scoring; this
//! maps stored rows to its inputs, so any round can be recomputed.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use skit_league::{
    ArenaParams, Constraints, History, PairingError, PlayerId, RoundRobinRequest, Seed, Standing,
    StandingsError, SwissRequest, Table, Waiting, arena, round_robin, swiss,
};
use skit_proto::v1::TournamentFormat;
use skit_store::{AccountId, TablePhase, TournamentEntry, TournamentTable};

use crate::duplicate;
pub use crate::scores::field;
use crate::scores::{account, counted, player, points_standings, ranked};
use crate::spec::Spec;
use crate::validation::{self, HouseBot};

/// Search steps per repeat limit for a Swiss round, and per round of a
/// round-robin attempt.
const BUDGET: u64 = 200_000;
/// Seeded orders a round robin tries.
const ATTEMPTS: u32 = 20;
/// An arena's cost for two players who sat at each other's last table:
/// about what twenty places of rank apart cost near the middle.
const REMATCH_PENALTY: i64 = 20_000;
/// Swap passes an arena seating makes.
const ARENA_PASSES: u32 = 8;

/// The operator's pins (`together`) and forbids (`apart`), by account.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seating {
    pub together: Vec<Vec<i64>>,
    pub apart: Vec<(i64, i64)>,
}

impl Seating {
    /// Stored constraints; `{}` (a new tournament's) is none.
    pub fn from_value(value: &Value) -> Self {
        serde_json::from_value(value.clone()).unwrap_or_default()
    }

    pub fn to_value(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    fn constraints(&self) -> Constraints {
        Constraints {
            together: self
                .together
                .iter()
                .map(|g| g.iter().map(|&a| player(a)).collect())
                .collect(),
            apart: self
                .apart
                .iter()
                .map(|&(a, b)| (player(a), player(b)))
                .collect(),
        }
    }

    /// The operator's constraints, and every two entrants of one owner
    /// apart (a person and the bots they run never share a table).
    fn constraints_for(&self, entries: &[TournamentEntry]) -> Constraints {
        let mut constraints = self.constraints();
        let field: Vec<&TournamentEntry> = entries.iter().filter(|e| !e.withdrawn).collect();
        for (i, a) in field.iter().enumerate() {
            for b in &field[i + 1..] {
                if a.owner == b.owner {
                    let pair = (player(a.account_id.0), player(b.account_id.0));
                    if !constraints.apart.contains(&pair) {
                        constraints.apart.push(pair);
                    }
                }
            }
        }
        constraints
    }

    /// Every account a pin or forbid names.
    pub fn named(&self) -> Vec<AccountId> {
        let named: std::collections::BTreeSet<i64> = self
            .together
            .iter()
            .flatten()
            .chain(self.apart.iter().flat_map(|(a, b)| [a, b]))
            .copied()
            .collect();
        named.into_iter().map(AccountId).collect()
    }

    /// Checked against the field and the table size, with `entries` of
    /// one owner kept apart as pairing keeps them (so a pin of two of
    /// them cannot hold).
    pub fn check(
        &self,
        entries: &[TournamentEntry],
        field: &[AccountId],
        seats: u32,
    ) -> Result<(), String> {
        let field: Vec<PlayerId> = field.iter().map(|a| player(a.0)).collect();
        self.constraints_for(entries)
            .check(&field, seats as usize)
            .map_err(|e| e.to_string())
    }
}

/// A seated round.
#[derive(Debug, Clone, PartialEq)]
pub struct Round {
    pub tables: Vec<TournamentTable>,
    pub repeat_limit: u32,
}

/// Round `round`'s tables.
pub fn next_round(
    spec: &Spec,
    entries: &[TournamentEntry],
    tables: &[TournamentTable],
    seating: &Seating,
    round: u32,
) -> Result<Round, PairingError> {
    let players = field(entries);
    let seed = Seed(spec.seed);
    let constraints = seating.constraints_for(entries);
    let (seated, repeat_limit) = match spec.format() {
        TournamentFormat::Elimination => {
            crate::stages::seat(spec, entries, tables, &constraints, round)?
        }
        TournamentFormat::RoundRobin => {
            // The schedule is fixed by the field and the seed: recomputed,
            // it is the same every round.
            let mut field: Vec<PlayerId> = players.iter().map(|e| player(e.account_id.0)).collect();
            field.sort();
            let schedule = round_robin(RoundRobinRequest {
                players: &field,
                seats: spec.seats as usize,
                rounds: spec.rounds as usize,
                apart: &constraints.apart,
                seed,
                budget: BUDGET,
                attempts: ATTEMPTS,
            })?;
            let index = round.saturating_sub(1) as usize;
            (schedule.rounds.get(index).cloned().unwrap_or_default(), 0)
        }
        TournamentFormat::Duplicate => match duplicate::deal_and_rotation(spec, round) {
            // A new deal: its groups seated as Swiss round `deal`, against
            // the groups of the earlier deals.
            (deal, 0) => {
                let mut history = History::new();
                for t in duplicate::first_rotations(spec, tables, round) {
                    history.record(&t);
                }
                let ranking = ranking(spec, entries, tables, deal);
                swiss_round(spec, &ranking, &history, &constraints, deal)?
            }
            _ => (duplicate::rotated(spec, tables, round), 0),
        },
        _ => {
            let mut history = History::new();
            for t in tables.iter().filter(|t| ranked(t) && t.round < round) {
                history.record(&Table::new(t.seats.iter().map(|a| player(a.0)).collect()));
            }
            let ranking = ranking(spec, entries, tables, round);
            swiss_round(spec, &ranking, &history, &constraints, round)?
        }
    };
    Ok(Round {
        tables: seated_tables(round, seated),
        repeat_limit,
    })
}

/// Swiss round `round` of `ranking` against `history`: its tables and the
/// repeat limit it needed.
fn swiss_round(
    spec: &Spec,
    ranking: &[PlayerId],
    history: &History,
    constraints: &Constraints,
    round: u32,
) -> Result<(Vec<Table>, u32), PairingError> {
    let seated = swiss(SwissRequest {
        ranking,
        seats: spec.seats as usize,
        history,
        constraints,
        seed: Seed(spec.seed),
        round,
        budget: BUDGET,
    })?;
    Ok((seated.tables, seated.repeat_limit))
}

/// The order a Swiss round is paired in: by rating before round 1, by the
/// standings after.
fn ranking(
    spec: &Spec,
    entries: &[TournamentEntry],
    tables: &[TournamentTable],
    round: u32,
) -> Vec<PlayerId> {
    if round > 1
        && let Ok(rows) = standings_of(spec, entries, tables)
    {
        return rows.into_iter().map(|s| s.player).collect();
    }
    let mut seeded = field(entries);
    seeded.sort_by(|a, b| {
        b.rating
            .total_cmp(&a.rating)
            .then(a.account_id.0.cmp(&b.account_id.0))
    });
    seeded.iter().map(|e| player(e.account_id.0)).collect()
}

/// The standings over every finished table, in the event's order: by
/// points, or for an elimination event by how far each player got.
pub fn standings_of(
    spec: &Spec,
    entries: &[TournamentEntry],
    tables: &[TournamentTable],
) -> Result<Vec<Standing>, StandingsError> {
    let rows = match spec.format() {
        TournamentFormat::Duplicate => {
            points_standings(spec, entries, &crate::duplicate::counted(spec, tables))?
        }
        _ => points_standings(spec, entries, tables)?,
    };
    Ok(match spec.format() {
        TournamentFormat::Elimination => crate::stages::reorder(spec, entries, tables, rows),
        _ => rows,
    })
}

/// Whether tables are seated continuously as players free up (arena, bot
/// ladder) rather than round by round.
pub fn continuous(spec: &Spec) -> bool {
    matches!(
        spec.format(),
        TournamentFormat::Arena | TournamentFormat::Ladder
    )
}

/// Whether `account` sits at a table still seated or playing.
fn busy(tables: &[TournamentTable], account: AccountId) -> bool {
    tables.iter().any(|t| {
        matches!(t.phase, TablePhase::Seated | TablePhase::Playing) && t.seats.contains(&account)
    })
}

/// A continuous event's next tables, numbered `wave`: the players not at a
/// table (in the order they freed up; a ladder's fewest tables first)
/// seated with players near them in rank and rating by the league crate's
/// arena pairing, with a penalty for sitting again with the last table's
/// players. A ladder first seats each free bot that owes validation games
/// with `house` bots ([`crate::validation`]). `None` while too few are
/// free to fill a table.
pub fn continuous_round(
    spec: &Spec,
    entries: &[TournamentEntry],
    tables: &[TournamentTable],
    seating: &Seating,
    house: &[HouseBot],
    wave: u32,
) -> Option<Round> {
    let played = |a: AccountId| {
        tables
            .iter()
            .filter(move |t| counted(t) && t.seats.contains(&a))
    };
    let mut free: Vec<&TournamentEntry> = field(entries)
        .into_iter()
        .filter(|e| !busy(tables, e.account_id))
        .collect();
    // Arrival order: the earlier a player's last table, the sooner they
    // are seated; a ladder seats the bots with the fewest tables first.
    let last_round = |e: &TournamentEntry| played(e.account_id).map(|t| t.round).max().unwrap_or(0);
    match spec.format() {
        TournamentFormat::Ladder => {
            free.sort_by_key(|e| (played(e.account_id).count(), last_round(e), e.account_id))
        }
        _ => free.sort_by_key(|e| (last_round(e), e.registered_at, e.account_id)),
    }
    let (validation, free) = validation::seat(spec, entries, tables, house, free, wave);
    let ranks: Vec<PlayerId> = standings_of(spec, entries, tables)
        .map(|rows| rows.into_iter().map(|s| s.player).collect())
        .unwrap_or_default();
    let pool: Vec<Waiting> = free
        .iter()
        .map(|e| {
            let p = player(e.account_id.0);
            let rank = ranks.iter().position(|&r| r == p).unwrap_or(ranks.len());
            Waiting {
                player: p,
                rank: u32::try_from(rank + 1).unwrap_or(u32::MAX),
                rating: e.rating.round() as i64,
            }
        })
        .collect();
    let mut history = History::new();
    let mut in_order: Vec<&TournamentTable> = tables.iter().filter(|t| ranked(t)).collect();
    in_order.sort_by_key(|t| (t.round, t.table));
    for t in in_order {
        history.record(&Table::new(t.seats.iter().map(|a| player(a.0)).collect()));
    }
    let params = ArenaParams {
        seats: spec.seats as usize,
        rematch_penalty: REMATCH_PENALTY,
        passes: ARENA_PASSES,
    };
    let seated = arena(
        &pool,
        params,
        &history,
        &seating.constraints_for(entries),
        Seed(spec.seed),
        u64::from(wave),
    );
    if seated.tables.is_empty() && validation.is_empty() {
        return None;
    }
    // The field's tables are numbered after the validation tables.
    let mut field_tables = seated_tables(wave, seated.tables);
    let after = u32::try_from(validation.len()).unwrap_or(u32::MAX);
    for t in &mut field_tables {
        t.table += after;
    }
    Some(Round {
        tables: validation.into_iter().chain(field_tables).collect(),
        repeat_limit: 0,
    })
}

/// `seated` as round `round`'s stored tables, numbered from 1.
fn seated_tables(round: u32, seated: Vec<Table>) -> Vec<TournamentTable> {
    (1u32..)
        .zip(seated)
        .map(|(table, t)| TournamentTable {
            round,
            table,
            seats: t.seats.into_iter().map(account).collect(),
            phase: TablePhase::Seated,
            game_id: None,
            places: None,
            loser: None,
            no_show: None,
            finished_at: None,
            validation: false,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use time::OffsetDateTime;

    use super::*;

    fn entry(account: i64, owner: i64) -> TournamentEntry {
        TournamentEntry {
            account_id: AccountId(account),
            rating: 0.0,
            withdrawn: false,
            registered_at: OffsetDateTime::UNIX_EPOCH,
            name: format!("p{account}"),
            owner: AccountId(owner),
        }
    }

    #[test]
    fn a_pin_of_one_owners_entrants_is_refused() {
        // 2 is a bot run by 1.
        let entries = [entry(1, 1), entry(2, 1), entry(3, 3)];
        let field = [AccountId(1), AccountId(2), AccountId(3)];
        let pin = |group: Vec<i64>| Seating {
            together: vec![group],
            apart: Vec::new(),
        };
        let refused = pin(vec![1, 3, 2]).check(&entries, &field, 3);
        assert!(
            refused
                .as_ref()
                .is_err_and(|e| e.contains("players 1 and 2 are pinned together and forbidden")),
            "{refused:?}"
        );
        assert_eq!(pin(vec![1, 3]).check(&entries, &field, 3), Ok(()));
        // A withdrawn entrant is no longer in the field.
        let mut left = entries.clone();
        left[1].withdrawn = true;
        assert_eq!(pin(vec![1, 2]).check(&left, &field, 3), Ok(()));
    }
}

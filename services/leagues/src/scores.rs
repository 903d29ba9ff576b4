//! From stored rows to the league crate's terms: accounts as players, the
//! field (entries not withdrawn), the tables that count, and the standings
//! by points and the operator's tiebreak chain. Everything that pairs or
//! ranks builds on these.

use skit_league::{
    Entrant, PlayerId, Scoring, Seed, Standing, StandingsError, Table, TableResult, Tiebreak,
    standings,
};
use skit_proto::v1;
use skit_store::{AccountId, TablePhase, TournamentEntry, TournamentTable};

use crate::spec::Spec;

/// Rating points for placing ahead of an opponent, in the performance
/// tiebreak.
const SPREAD: i64 = 200;

pub(crate) fn player(account: i64) -> PlayerId {
    PlayerId(u64::try_from(account).unwrap_or_default())
}

pub(crate) fn account(player: PlayerId) -> AccountId {
    AccountId(i64::try_from(player.0).unwrap_or_default())
}

/// The entrants who play: registered and not withdrawn.
pub fn field(entries: &[TournamentEntry]) -> Vec<&TournamentEntry> {
    entries.iter().filter(|e| !e.withdrawn).collect()
}

pub(crate) fn counted(table: &TournamentTable) -> bool {
    table.phase != TablePhase::Void
}

/// Whether a table counts toward the standings and the pairing history:
/// not void, and not a ladder's validation table (house bots at it say
/// nothing about the field).
pub(crate) fn ranked(table: &TournamentTable) -> bool {
    counted(table) && !table.validation
}

fn tiebreak(t: i32) -> Option<Tiebreak> {
    Some(match v1::Tiebreak::try_from(t).ok()? {
        v1::Tiebreak::HeadToHead => Tiebreak::HeadToHead,
        v1::Tiebreak::OpponentsAverage => Tiebreak::OpponentsAverage,
        v1::Tiebreak::SonnebornBerger => Tiebreak::SonnebornBerger,
        v1::Tiebreak::Firsts => Tiebreak::Firsts,
        v1::Tiebreak::FewestSkitgubbe => Tiebreak::FewestSkitgubbe,
        v1::Tiebreak::Performance => Tiebreak::Performance,
        v1::Tiebreak::Unspecified => return None,
    })
}

/// The standings over every finished table, by points and the tiebreaks.
pub(crate) fn points_standings(
    spec: &Spec,
    entries: &[TournamentEntry],
    tables: &[TournamentTable],
) -> Result<Vec<Standing>, StandingsError> {
    // Validation tables are left out: house bots are no entrants.
    let tables: Vec<&TournamentTable> = tables.iter().filter(|t| !t.validation).collect();
    // Everyone who sat at a table counts, even if withdrawn since.
    let entrants: Vec<Entrant> = entries
        .iter()
        .filter(|e| !e.withdrawn || tables.iter().any(|t| t.seats.contains(&e.account_id)))
        .map(|e| Entrant {
            player: player(e.account_id.0),
            rating: e.rating.round() as i64,
        })
        .collect();
    let mut results = Vec::new();
    for t in tables.iter().filter(|t| t.phase == TablePhase::Over) {
        let table = Table::new(t.seats.iter().map(|a| player(a.0)).collect());
        let places = t
            .places
            .clone()
            .unwrap_or_default()
            .into_iter()
            .map(|p| p as usize)
            .collect();
        match TableResult::new(table, places, t.loser.map(|l| l as usize)) {
            Ok(result) => results.push(result),
            Err(error) => {
                tracing::error!(round = t.round, table = t.table, %error, "a stored result is unusable");
            }
        }
    }
    let scoring = Scoring {
        chain: spec.tiebreaks.iter().filter_map(|&t| tiebreak(t)).collect(),
        spread: SPREAD,
        seed: Seed(spec.seed),
    };
    standings(&entrants, &results, &scoring)
}

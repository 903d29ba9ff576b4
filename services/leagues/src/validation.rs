//! A ladder's validation games: a new bot's first tables (the ladder's
//! `validation_games`, 2 unless its creator chose), each with one of the
//! service's house bots in every other seat and never another entrant.
//! They are stored marked `validation`, left out of the standings and the
//! pairing history, and a bot that loses one on time leaves the ladder.
//! Where too few house bots can sit with a bot, it is seated with the
//! field instead, as before there were validation games.

use skit_store::{AccountId, TablePhase, TournamentEntry, TournamentTable};

use crate::scores::counted;
use crate::spec::Spec;

/// A house bot as the seating sees it: its account and its owner.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HouseBot {
    pub account: AccountId,
    pub owner: AccountId,
}

/// The validation tables `account` played or sits at (a void one is
/// played again).
pub fn played(tables: &[TournamentTable], account: AccountId) -> usize {
    tables
        .iter()
        .filter(|t| t.validation && counted(t) && t.seats.contains(&account))
        .count()
}

/// Whether `entry` still owes the ladder validation games.
pub fn owes(spec: &Spec, tables: &[TournamentTable], entry: &TournamentEntry) -> bool {
    played(tables, entry.account_id) < spec.validation_games() as usize
}

/// The house bots to sit with `entry` at its validation game number
/// `done + 1`: `need` distinct ones, none an entrant of this ladder nor
/// run by `entry`'s owner, taken in turn so that its games meet different
/// bots where there are enough. `None` if too few can.
fn partners(
    entry: &TournamentEntry,
    entries: &[TournamentEntry],
    house: &[HouseBot],
    need: usize,
    done: usize,
) -> Option<Vec<AccountId>> {
    let candidates: Vec<AccountId> = house
        .iter()
        .filter(|h| h.owner != entry.owner && h.account != entry.account_id)
        .filter(|h| !entries.iter().any(|e| e.account_id == h.account))
        .map(|h| h.account)
        .collect();
    if need == 0 || candidates.len() < need {
        return None;
    }
    let start = done * need;
    Some(
        (0..need)
            .map(|i| candidates[(start + i) % candidates.len()])
            .collect(),
    )
}

/// Validation tables for those of `free` (in seating order) who owe
/// validation games, as round `wave`'s tables numbered from 1, and the
/// rest of `free`, to seat with the field.
pub fn seat<'a>(
    spec: &Spec,
    entries: &[TournamentEntry],
    tables: &[TournamentTable],
    house: &[HouseBot],
    free: Vec<&'a TournamentEntry>,
    wave: u32,
) -> (Vec<TournamentTable>, Vec<&'a TournamentEntry>) {
    let seats = spec.seats as usize;
    let mut seated = Vec::new();
    let mut rest = Vec::new();
    for entry in free {
        let done = played(tables, entry.account_id);
        let bots = owes(spec, tables, entry)
            .then(|| partners(entry, entries, house, seats.saturating_sub(1), done))
            .flatten();
        let Some(mut bots) = bots else {
            rest.push(entry);
            continue;
        };
        // The bot's seat moves round with its games, so that it deals
        // (seat 0) in some and not in others.
        bots.insert(done % seats, entry.account_id);
        let table = u32::try_from(seated.len() + 1).unwrap_or(u32::MAX);
        seated.push(TournamentTable {
            round: wave,
            table,
            seats: bots,
            phase: TablePhase::Seated,
            game_id: None,
            places: None,
            loser: None,
            no_show: None,
            finished_at: None,
            validation: true,
        });
    }
    (seated, rest)
}

#[cfg(test)]
mod tests {
    use time::OffsetDateTime;

    use super::*;

    fn entry(account: i64) -> TournamentEntry {
        TournamentEntry {
            account_id: AccountId(account),
            rating: 0.0,
            withdrawn: false,
            registered_at: OffsetDateTime::UNIX_EPOCH,
            name: format!("p{account}"),
            owner: AccountId(account),
        }
    }

    fn house(accounts: &[i64]) -> Vec<HouseBot> {
        accounts
            .iter()
            .map(|&a| HouseBot {
                account: AccountId(a),
                owner: AccountId(100),
            })
            .collect()
    }

    #[test]
    fn partners_are_distinct_house_bots_that_are_not_entrants() {
        let entries = [entry(1), entry(50)];
        // 50 is a house bot that entered the ladder itself: never a partner.
        let bots = house(&[50, 51, 52, 53]);
        let first = partners(&entries[0], &entries, &bots, 2, 0).unwrap_or_default();
        let second = partners(&entries[0], &entries, &bots, 2, 1).unwrap_or_default();
        assert_eq!(first, vec![AccountId(51), AccountId(52)]);
        assert_eq!(second, vec![AccountId(53), AccountId(51)]);
        // Too few, or run by the entrant's owner: none.
        assert_eq!(partners(&entries[0], &entries, &bots, 4, 0), None);
        let mut own = entry(2);
        own.owner = AccountId(100);
        assert_eq!(partners(&own, &entries, &bots, 1, 0), None);
    }
}

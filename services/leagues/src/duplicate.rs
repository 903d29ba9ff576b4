//! Duplicate deals: each deal is played by one group once per seat, the
//! seats rotated each round, from one seed, so every entrant of the group
//! plays every seat of the same cards (docs/leagues.md, "Duplicate deals").
//!
//! Round `R` of a duplicate event at tables of k is rotation
//! `(R - 1) mod k` of deal `(R - 1) / k + 1`. A deal's first rotation is
//! seated as a Swiss round; rotation r seats entrant `(s + r) mod k` of the
//! table's group at seat s, keeping the table's number, so a deal is a
//! (deal, table) pair. Its seed derives from the event's secret and is
//! published on its tables once every rotation of the deal is over.

use sha2::{Digest, Sha256};
use skit_league::Table;
use skit_proto::v1::TournamentFormat;
use skit_store::{TablePhase, TournamentTable};

use crate::scores::player;
use crate::spec::Spec;

/// The label a deal's seed is derived under.
const LABEL: &[u8] = b"skit-league duplicate deal";

pub fn is_duplicate(spec: &Spec) -> bool {
    spec.format() == TournamentFormat::Duplicate
}

/// The deal (1-based) and rotation (0-based) that round `round` plays.
pub fn deal_and_rotation(spec: &Spec, round: u32) -> (u32, u32) {
    let k = spec.seats.max(1);
    let index = round.saturating_sub(1);
    (index / k + 1, index % k)
}

/// The round of a deal's first rotation.
fn first_round(spec: &Spec, deal: u32) -> u32 {
    (deal - 1) * spec.seats + 1
}

/// The seed of deal `deal` at table `table`, 64 hex characters:
/// sha256(label || secret || u32be(deal) || u32be(table)). `None` for an
/// event without a secret (not a duplicate one).
pub fn deal_seed(spec: &Spec, deal: u32, table: u32) -> Option<String> {
    let secret = hex::decode(spec.deal_secret.as_deref()?).ok()?;
    let mut hash = Sha256::new();
    hash.update(LABEL);
    hash.update(&secret);
    hash.update(deal.to_be_bytes());
    hash.update(table.to_be_bytes());
    Some(hex::encode(hash.finalize()))
}

/// The tables of `t`'s deal stored in `tables`: every rotation so far.
fn rotations<'a>(
    spec: &'a Spec,
    tables: &'a [TournamentTable],
    t: &'a TournamentTable,
) -> impl Iterator<Item = &'a TournamentTable> {
    let (deal, _) = deal_and_rotation(spec, t.round);
    tables
        .iter()
        .filter(move |x| x.table == t.table && deal_and_rotation(spec, x.round).0 == deal)
}

/// Whether every rotation of `t`'s deal has been played to its end.
fn complete(spec: &Spec, tables: &[TournamentTable], t: &TournamentTable) -> bool {
    let over = rotations(spec, tables, t)
        .filter(|x| x.phase == TablePhase::Over)
        .count();
    over == spec.seats as usize
}

/// `t`'s deal seed, once every rotation of its deal is over.
pub fn published(spec: &Spec, tables: &[TournamentTable], t: &TournamentTable) -> Option<String> {
    if !is_duplicate(spec) || !complete(spec, tables, t) {
        return None;
    }
    deal_seed(spec, deal_and_rotation(spec, t.round).0, t.table)
}

/// The tables that count for the standings: only deals whose rotations
/// are all over, so everyone in a group is compared on the same cards in
/// every seat. A deal with a rotation voided (or cut off by the end)
/// counts for nobody.
pub fn counted(spec: &Spec, tables: &[TournamentTable]) -> Vec<TournamentTable> {
    tables
        .iter()
        .filter(|t| complete(spec, tables, t))
        .cloned()
        .collect()
}

/// The first rotations of the deals before `round`: the meetings a Swiss
/// pairing of a new deal avoids repeating (each group counted once).
pub fn first_rotations(spec: &Spec, tables: &[TournamentTable], round: u32) -> Vec<Table> {
    tables
        .iter()
        .filter(|t| t.round < round && t.phase != TablePhase::Void)
        .filter(|t| deal_and_rotation(spec, t.round).1 == 0)
        .map(|t| Table::new(t.seats.iter().map(|a| player(a.0)).collect()))
        .collect()
}

/// Rotation `r` (>= 1) of round `round`'s deal: each table of the deal's
/// first rotation with entrant `(s + r) mod n` of its group at seat s.
pub fn rotated(spec: &Spec, tables: &[TournamentTable], round: u32) -> Vec<Table> {
    let (deal, r) = deal_and_rotation(spec, round);
    let first = first_round(spec, deal);
    let mut groups: Vec<&TournamentTable> = tables.iter().filter(|t| t.round == first).collect();
    groups.sort_by_key(|t| t.table);
    groups
        .into_iter()
        .map(|t| {
            let n = t.seats.len();
            let seats = (0..n)
                .map(|s| player(t.seats[(s + r as usize) % n].0))
                .collect();
            Table::new(seats)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use serde_json::json;
    use skit_store::AccountId;

    use super::*;
    use crate::spec::Conditions;

    fn spec(seats: u32) -> Spec {
        Spec {
            name: "dup".into(),
            rules: json!({ "preset": "skitgubbe" }),
            ruleset_key: "skitgubbe".into(),
            format: TournamentFormat::Duplicate as i32,
            seats,
            rounds: seats * 2,
            rated: false,
            time_control: None,
            conditions: Conditions::default(),
            entry_code: String::new(),
            tiebreaks: Vec::new(),
            seed: 7,
            duration_minutes: 0,
            stages: Vec::new(),
            deal_secret: Some("ab".repeat(32)),
            validation_games: None,
        }
    }

    fn table(round: u32, table: u32, seats: &[i64], phase: TablePhase) -> TournamentTable {
        TournamentTable {
            round,
            table,
            seats: seats.iter().map(|&a| AccountId(a)).collect(),
            phase,
            game_id: None,
            places: None,
            loser: None,
            no_show: None,
            finished_at: None,
            validation: false,
        }
    }

    #[test]
    fn rounds_map_to_deals_and_rotations() {
        let s = spec(3);
        let got: Vec<(u32, u32)> = (1..=7).map(|r| deal_and_rotation(&s, r)).collect();
        assert_eq!(
            got,
            [(1, 0), (1, 1), (1, 2), (2, 0), (2, 1), (2, 2), (3, 0)]
        );
    }

    #[test]
    fn rotation_r_seats_entrant_s_plus_r_of_the_group_at_seat_s() {
        let s = spec(3);
        let first = [
            table(4, 1, &[10, 11, 12], TablePhase::Over),
            table(4, 2, &[20, 21, 22], TablePhase::Over),
        ];
        let seats = |t: &Table| t.seats.iter().map(|p| p.0).collect::<Vec<_>>();
        let second: Vec<_> = rotated(&s, &first, 5).iter().map(seats).collect();
        assert_eq!(second, [vec![11u64, 12, 10], vec![21, 22, 20]]);
        let third: Vec<_> = rotated(&s, &first, 6).iter().map(seats).collect();
        assert_eq!(third, [vec![12u64, 10, 11], vec![22, 20, 21]]);
    }

    #[test]
    fn a_deal_counts_and_shows_its_seed_only_once_every_rotation_is_over() {
        let s = spec(2);
        let mut tables = vec![
            table(1, 1, &[1, 2], TablePhase::Over),
            table(2, 1, &[2, 1], TablePhase::Playing),
        ];
        assert_eq!(published(&s, &tables, &tables[0]), None);
        assert!(counted(&s, &tables).is_empty());
        tables[1].phase = TablePhase::Over;
        let seed = published(&s, &tables, &tables[0]).unwrap();
        assert_eq!(published(&s, &tables, &tables[1]), Some(seed.clone()));
        assert_eq!(seed, deal_seed(&s, 1, 1).unwrap());
        assert_eq!(seed.len(), 64);
        assert_eq!(counted(&s, &tables).len(), 2);
        // Another deal, or another table, has another seed.
        assert_ne!(deal_seed(&s, 2, 1), Some(seed.clone()));
        assert_ne!(deal_seed(&s, 1, 2), Some(seed));
        // A voided rotation: the deal never counts.
        tables[1].phase = TablePhase::Void;
        assert_eq!(published(&s, &tables, &tables[0]), None);
        assert!(counted(&s, &tables).is_empty());
    }
}

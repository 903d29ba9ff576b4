#![allow(clippy::unwrap_used)]

use std::collections::{BTreeMap, HashSet};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use skit_store::SeasonRating;

use super::*;

const RULES: DivisionRules = DivisionRules {
    tiers: 3,
    cohort_size: 10,
    promote_percent: 20,
    relegate_percent: 20,
    min_games: 2,
};

fn member(id: i64, tier: u32, cohort: u32, games: u32, mu: f64) -> DivisionMember {
    DivisionMember {
        place: DivisionPlace {
            account_id: AccountId(id),
            tier,
            cohort,
            arrival: Arrival::Stayed,
            stepping_down: false,
        },
        name: format!("p{id}"),
        bot: false,
        season: (games > 0).then_some(SeasonRating {
            account_id: AccountId(id),
            skill: Skill { mu, sigma: 3.0 },
            games,
        }),
        lifetime: Some(Skill { mu, sigma: 3.0 }),
    }
}

/// A cohort of ten in `tier`, account `base + i` rated `40 - i`, each with
/// three games.
fn cohort_of_ten(tier: u32, base: i64) -> Vec<DivisionMember> {
    (0..10)
        .map(|i| member(base + i, tier, 1, 3, 40.0 - i as f64))
        .collect()
}

fn zones(ranked: &[Ranked<'_>]) -> Vec<(i64, Zone)> {
    ranked
        .iter()
        .map(|r| (r.member.place.account_id.0, r.zone))
        .collect()
}

#[test]
fn a_middle_cohort_promotes_its_top_fifth_and_relegates_its_bottom_fifth() {
    let cohort = cohort_of_ten(2, 0);
    let ranked = rank(&RULES, &cohort);
    let zones = zones(&ranked);
    assert_eq!(zones[0], (0, Zone::Promotion));
    assert_eq!(zones[1], (1, Zone::Promotion));
    assert!(
        zones[2..8].iter().all(|&(_, z)| z == Zone::Stay),
        "{zones:?}"
    );
    assert_eq!(zones[8], (8, Zone::Relegation));
    assert_eq!(zones[9], (9, Zone::Relegation));
}

#[test]
fn the_top_tier_promotes_nobody_and_the_bottom_tier_relegates_nobody() {
    let top = cohort_of_ten(1, 0);
    assert!(rank(&RULES, &top).iter().all(|r| r.zone != Zone::Promotion));
    let bottom = cohort_of_ten(3, 0);
    assert!(
        rank(&RULES, &bottom)
            .iter()
            .all(|r| r.zone != Zone::Relegation)
    );
}

#[test]
fn an_inactive_player_ranks_last_and_is_relegated_or_leaves_from_the_bottom() {
    let mut cohort = cohort_of_ten(1, 0);
    // The best rated played one game of the two that keep a player active.
    cohort[0] = member(0, 1, 1, 1, 50.0);
    let ranked = rank(&RULES, &cohort);
    let last = ranked.last().unwrap();
    assert_eq!(last.member.place.account_id, AccountId(0));
    assert!(!last.active);
    assert_eq!(last.zone, Zone::Relegation);

    let mut bottom = cohort_of_ten(3, 0);
    bottom[4] = member(4, 3, 1, 0, 30.0);
    let ranked = rank(&RULES, &bottom);
    assert_eq!(ranked.last().unwrap().zone, Zone::Out);
    let next = turn(&RULES, &bottom);
    assert_eq!(next.len(), 9);
    assert!(next.iter().all(|p| p.account_id != AccountId(4)));
}

#[test]
fn a_turn_moves_each_zone_and_stepping_down_wins_over_promotion() {
    let mut members = cohort_of_ten(1, 0);
    members.extend(cohort_of_ten(2, 100));
    members.extend(cohort_of_ten(3, 200));
    // The best of tier 2 asked to step down.
    members[10].place.stepping_down = true;
    let next = turn(&RULES, &members);
    let place = |id: i64| next.iter().find(|p| p.account_id == AccountId(id)).unwrap();
    assert_eq!(
        (place(100).tier, place(100).arrival),
        (3, Arrival::SteppedDown)
    );
    // Zones go by rank: the stepper holds rank 1 of the two promoted, so
    // only the second goes up.
    assert_eq!(
        (place(101).tier, place(101).arrival),
        (1, Arrival::Promoted)
    );
    assert_eq!((place(102).tier, place(102).arrival), (2, Arrival::Stayed));
    assert_eq!((place(8).tier, place(8).arrival), (2, Arrival::Relegated));
    assert_eq!(
        (place(200).tier, place(200).arrival),
        (2, Arrival::Promoted)
    );
    assert_eq!((place(209).tier, place(209).arrival), (3, Arrival::Stayed));
    assert_eq!(next.len(), 30);
}

#[test]
fn seeding_spreads_players_over_the_tiers_best_first() {
    let players: Vec<(AccountId, Skill)> = (0..7)
        .map(|i| {
            (
                AccountId(i),
                Skill {
                    mu: 30.0 - i as f64,
                    sigma: 2.0,
                },
            )
        })
        .collect();
    let rules = DivisionRules {
        cohort_size: 2,
        ..RULES
    };
    let places = seed(&rules, &players);
    let tier_of = |id: i64| {
        places
            .iter()
            .find(|p| p.account_id == AccountId(id))
            .unwrap()
            .tier
    };
    assert_eq!(
        (0..7).map(tier_of).collect::<Vec<_>>(),
        [1, 1, 1, 2, 2, 3, 3]
    );
    // Three in tier 1 at cohorts of two: a cohort of two and one of one.
    let tier1: Vec<u32> = places
        .iter()
        .filter(|p| p.tier == 1)
        .map(|p| p.cohort)
        .collect();
    assert_eq!(tier1, [1, 1, 2]);
    assert!(places.iter().all(|p| p.arrival == Arrival::Seeded));
    assert!(seed(&rules, &[]).is_empty());
}

#[test]
fn a_new_player_enters_the_smallest_cohort_with_room_or_a_new_one() {
    let rules = DivisionRules {
        cohort_size: 3,
        ..RULES
    };
    assert_eq!(entry_cohort(&rules, &[]), 1);
    assert_eq!(entry_cohort(&rules, &[(1, 3), (2, 2), (3, 1)]), 3);
    assert_eq!(entry_cohort(&rules, &[(1, 2), (2, 2)]), 1);
    assert_eq!(entry_cohort(&rules, &[(1, 3), (2, 3)]), 3);
}

/// Over many random fields: every player keeps exactly one place unless
/// they leave from the bottom tier inactive; nobody moves more than one
/// tier; cohorts hold at most the configured size and differ by at most
/// one within a tier; the same input gives the same places.
#[test]
fn turns_over_random_fields_keep_every_player_and_balance_the_cohorts() {
    for case in 0..200u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(case);
        let rules = DivisionRules {
            tiers: rng.random_range(2..=5),
            cohort_size: rng.random_range(2..=12),
            promote_percent: rng.random_range(0..=50),
            relegate_percent: rng.random_range(0..=50),
            min_games: rng.random_range(1..=3),
        };
        let n = rng.random_range(0..=80);
        let players: Vec<(AccountId, Skill)> = (0..n)
            .map(|i| {
                let mu = rng.random_range(10.0..40.0);
                (AccountId(i), Skill { mu, sigma: 3.0 })
            })
            .collect();
        let mut sorted = players.clone();
        sorted.sort_by(|a, b| b.1.conservative().total_cmp(&a.1.conservative()));
        let placed = seed(&rules, &sorted);
        let members: Vec<DivisionMember> = placed
            .iter()
            .map(|p| {
                let mut m = member(
                    p.account_id.0,
                    p.tier,
                    p.cohort,
                    rng.random_range(0..=4),
                    rng.random_range(10.0..40.0),
                );
                m.place.stepping_down = rng.random_bool(0.1);
                m
            })
            .collect();
        let next = turn(&rules, &members);
        assert_eq!(next, turn(&rules, &members), "case {case}");
        let mut seen = HashSet::new();
        for p in &next {
            assert!(seen.insert(p.account_id), "case {case}: placed twice");
            let before = members
                .iter()
                .find(|m| m.place.account_id == p.account_id)
                .unwrap();
            assert!(p.tier.abs_diff(before.place.tier) <= 1, "case {case}");
            assert!((1..=rules.tiers).contains(&p.tier), "case {case}");
        }
        for m in &members {
            if !seen.contains(&m.place.account_id) {
                assert!(
                    m.place.tier == rules.tiers && !active(&rules, m),
                    "case {case}: {m:?} lost its place"
                );
            }
        }
        let mut sizes: BTreeMap<(u32, u32), u32> = BTreeMap::new();
        for p in &next {
            *sizes.entry((p.tier, p.cohort)).or_default() += 1;
        }
        for tier in 1..=rules.tiers {
            let in_tier: Vec<u32> = sizes
                .iter()
                .filter(|((t, _), _)| *t == tier)
                .map(|(_, &n)| n)
                .collect();
            if let (Some(max), Some(min)) = (in_tier.iter().max(), in_tier.iter().min()) {
                assert!(*max <= rules.cohort_size, "case {case}: {sizes:?}");
                assert!(max - min <= 1, "case {case}: {sizes:?}");
            }
        }
    }
}

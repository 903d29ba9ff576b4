//! Divisions' rules (docs/ratings.md, "Divisions"): how a season's first
//! period seeds its tiers, where a new player enters, how a cohort ranks
//! and which zone each rank falls in, and how a period's results become
//! the next period's tiers and cohorts. Pure: the store's rows in, places
//! out, so a turn can be recomputed from what is stored.

use std::cmp::Ordering;
use std::collections::BTreeMap;

use skit_store::{AccountId, Arrival, DivisionMember, DivisionPlace, DivisionRules, Skill};

use crate::rating_model::START;
use crate::seasons::soft_reset;

/// Where a player goes when the period turns, from where they stand now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Zone {
    Promotion,
    Stay,
    Relegation,
    /// Inactive in the bottom tier: leaves the divisions until their next
    /// rated game of the season.
    Out,
}

/// A member of a cohort at their rank in it.
#[derive(Debug, Clone)]
pub struct Ranked<'a> {
    pub member: &'a DivisionMember,
    /// 1-based.
    pub rank: u32,
    pub active: bool,
    pub zone: Zone,
}

/// Whether a member played enough games this period to keep their tier.
pub fn active(rules: &DivisionRules, member: &DivisionMember) -> bool {
    member.season.as_ref().map_or(0, |s| s.games) >= rules.min_games.max(1)
}

/// The rating a member's cohort ranks on: their period's, else where their
/// first game of it would start.
pub fn standing_skill(member: &DivisionMember) -> Skill {
    match &member.season {
        Some(s) => s.skill,
        None => soft_reset(member.lifetime.unwrap_or(START)),
    }
}

/// The rating that places a member in a cohort of their next tier: their
/// period's if they played, else their lifetime rating.
fn seeding_skill(member: &DivisionMember) -> Skill {
    match &member.season {
        Some(s) if s.games > 0 => s.skill,
        _ => member.lifetime.unwrap_or(START),
    }
}

/// Best first: active before inactive, then the conservative rating, more
/// games, and the account.
fn by_standing(rules: &DivisionRules, a: &DivisionMember, b: &DivisionMember) -> Ordering {
    let games = |m: &DivisionMember| m.season.as_ref().map_or(0, |s| s.games);
    active(rules, b)
        .cmp(&active(rules, a))
        .then(
            standing_skill(b)
                .conservative()
                .total_cmp(&standing_skill(a).conservative()),
        )
        .then(games(b).cmp(&games(a)))
        .then(a.place.account_id.cmp(&b.place.account_id))
}

/// `percent` of `n`, rounded half up.
fn share(n: u32, percent: u32) -> u32 {
    (n * percent + 50) / 100
}

/// The zone of rank `rank` (1-based) of a cohort of `n` in `tier`.
fn zone(rules: &DivisionRules, tier: u32, rank: u32, n: u32, active: bool) -> Zone {
    let bottom = tier >= rules.tiers;
    if !active {
        return if bottom { Zone::Out } else { Zone::Relegation };
    }
    let up = share(n, rules.promote_percent);
    let down = share(n, rules.relegate_percent).min(n - up);
    if tier > 1 && rank <= up {
        Zone::Promotion
    } else if !bottom && rank > n - down {
        Zone::Relegation
    } else {
        Zone::Stay
    }
}

/// One cohort's members ranked, each with the zone they stand in.
pub fn rank<'a>(rules: &DivisionRules, cohort: &'a [DivisionMember]) -> Vec<Ranked<'a>> {
    let mut members: Vec<&DivisionMember> = cohort.iter().collect();
    members.sort_by(|a, b| by_standing(rules, a, b));
    let n = u32::try_from(members.len()).unwrap_or(u32::MAX);
    (1u32..)
        .zip(members)
        .map(|(rank, member)| {
            let active = active(rules, member);
            Ranked {
                member,
                rank,
                active,
                zone: zone(rules, member.place.tier, rank, n, active),
            }
        })
        .collect()
}

/// Splits `players` (best first) into cohorts of at most `size`, as even
/// as can be: cohort 1 the strongest.
fn cohorts(tier: u32, size: u32, players: &[(AccountId, Arrival)]) -> Vec<DivisionPlace> {
    let n = players.len();
    let size = size.max(1) as usize;
    let count = n.div_ceil(size).max(1);
    let (base, extra) = (n / count, n % count);
    let mut places = Vec::with_capacity(n);
    let mut rest = players;
    for i in 0..count {
        let take = base + usize::from(i < extra);
        let (these, after) = rest.split_at(take.min(rest.len()));
        rest = after;
        let cohort = u32::try_from(i + 1).unwrap_or(u32::MAX);
        places.extend(these.iter().map(|&(account_id, arrival)| DivisionPlace {
            account_id,
            tier,
            cohort,
            arrival,
            stepping_down: false,
        }));
    }
    places
}

/// The first period's places: players (best first by lifetime rating)
/// spread over the tiers in equal shares, the best in tier 1.
pub fn seed(rules: &DivisionRules, players: &[(AccountId, Skill)]) -> Vec<DivisionPlace> {
    let n = players.len();
    let tiers = rules.tiers.max(1) as usize;
    let mut by_tier: BTreeMap<u32, Vec<(AccountId, Arrival)>> = BTreeMap::new();
    for (i, (account, _)) in players.iter().enumerate() {
        let tier = u32::try_from(1 + i * tiers / n).unwrap_or(u32::MAX);
        by_tier
            .entry(tier)
            .or_default()
            .push((*account, Arrival::Seeded));
    }
    by_tier
        .into_iter()
        .flat_map(|(tier, players)| cohorts(tier, rules.cohort_size, &players))
        .collect()
}

/// The cohort of the bottom tier a new player enters: the smallest with
/// room (the first of equals), or a new one when all are full. `sizes`:
/// each cohort and its players.
pub fn entry_cohort(rules: &DivisionRules, sizes: &[(u32, u32)]) -> u32 {
    let roomy = sizes
        .iter()
        .filter(|&&(_, n)| n < rules.cohort_size)
        .min_by_key(|&&(cohort, n)| (n, cohort));
    match roomy {
        Some(&(cohort, _)) => cohort,
        None => sizes.iter().map(|&(c, _)| c).max().unwrap_or(0) + 1,
    }
}

/// A period's turn: each cohort ranked, each player moved by their zone
/// (or down a tier at their request), then each tier cut into cohorts by
/// rating. Players in the `Out` zone get no place.
pub fn turn(rules: &DivisionRules, members: &[DivisionMember]) -> Vec<DivisionPlace> {
    let mut by_cohort: BTreeMap<(u32, u32), Vec<DivisionMember>> = BTreeMap::new();
    for m in members {
        by_cohort
            .entry((m.place.tier, m.place.cohort))
            .or_default()
            .push(m.clone());
    }
    let mut next: BTreeMap<u32, Vec<(Skill, AccountId, Arrival)>> = BTreeMap::new();
    for cohort in by_cohort.values() {
        for r in rank(rules, cohort) {
            let tier = r.member.place.tier.clamp(1, rules.tiers);
            let stepping = r.member.place.stepping_down && tier < rules.tiers;
            let (to, arrival) = match (stepping, r.zone, r.active) {
                (true, _, _) => (tier + 1, Arrival::SteppedDown),
                (false, Zone::Out, _) => continue,
                (false, Zone::Promotion, _) => (tier - 1, Arrival::Promoted),
                (false, Zone::Relegation, false) => (tier + 1, Arrival::Inactive),
                (false, Zone::Relegation, true) => (tier + 1, Arrival::Relegated),
                (false, Zone::Stay, _) => (tier, Arrival::Stayed),
            };
            next.entry(to).or_default().push((
                seeding_skill(r.member),
                r.member.place.account_id,
                arrival,
            ));
        }
    }
    next.into_iter()
        .flat_map(|(tier, mut players)| {
            players.sort_by(|a, b| {
                b.0.conservative()
                    .total_cmp(&a.0.conservative())
                    .then(a.1.cmp(&b.1))
            });
            let players: Vec<(AccountId, Arrival)> =
                players.into_iter().map(|(_, id, a)| (id, a)).collect();
            cohorts(tier, rules.cohort_size, &players)
        })
        .collect()
}

#[cfg(test)]
mod tests;

//! Forming tables from waiting tickets: pure, no I/O, so every rule can be
//! tested with made-up tickets and a fixed clock.
//!
//! The oldest waiting ticket anchors a table. Its rating window (`base +
//! widen_per_second × seconds it has waited`) bounds whose ratings may join
//! it; among those with the same ruleset key and guest-ness, the largest
//! player count the anchor and enough others accept wins (a full table),
//! closest ratings first. Without a full table, and once the anchor has
//! waited the bot fill wait, a table of tickets that all allow bots is
//! completed with bot accounts of close rating, at the size nearest the
//! ruleset's usual table (a player alone who accepts any size plays
//! skitgubbe with three, not two). Otherwise the anchor waits
//! and the next oldest ticket tries. Seat order is random. No two seats of
//! a table belong to one owner (an account and the bots it runs, or two
//! of those bots: `owner`).

use std::collections::{BTreeMap, HashSet};
use std::time::Duration;

use rand::Rng;
use rand::seq::SliceRandom;
use skit_store::TicketId;
use time::OffsetDateTime;

/// A ticket as the former sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct Waiting {
    pub id: TicketId,
    pub account: i64,
    /// The account's owner group (`skit_store::Account::owner_group`).
    pub owner: i64,
    pub ruleset_key: String,
    /// Acceptable player counts.
    pub counts: Vec<u32>,
    /// The ruleset's usual table ([`skit_engine::Ruleset::usual_players`]).
    pub usual: u32,
    pub allow_bots: bool,
    pub rating: f64,
    pub enqueued_at: OffsetDateTime,
    /// Guests play unrated tables, never with rated tickets.
    pub guest: bool,
}

/// A bot account that may fill seats, with its rating under the key.
#[derive(Debug, Clone, PartialEq)]
pub struct Bot {
    pub account: i64,
    /// The bot's owner group, as [`Waiting::owner`].
    pub owner: i64,
    pub rating: f64,
}

/// How tables are formed.
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    /// The rating window of a ticket that has just arrived.
    pub window_base: f64,
    /// How much the window widens per second waited.
    pub window_per_second: f64,
    /// How long the oldest ticket waits before bots complete its table.
    pub bot_fill_wait: Duration,
}

/// One seat of a formed table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Seat {
    Ticket { id: TicketId, account: i64 },
    Bot { account: i64 },
}

impl Seat {
    pub fn account(&self) -> i64 {
        match *self {
            Seat::Ticket { account, .. } | Seat::Bot { account } => account,
        }
    }
}

/// A table to create.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    pub ruleset_key: String,
    /// Rated unless its tickets are guests'.
    pub rated: bool,
    /// In seat order.
    pub seats: Vec<Seat>,
}

impl Table {
    pub fn tickets(&self) -> impl Iterator<Item = TicketId> + '_ {
        self.seats.iter().filter_map(|s| match s {
            Seat::Ticket { id, .. } => Some(*id),
            Seat::Bot { .. } => None,
        })
    }

    pub fn bots(&self) -> usize {
        self.seats
            .iter()
            .filter(|s| matches!(s, Seat::Bot { .. }))
            .count()
    }
}

/// The tables that can be formed now; tickets left out keep waiting.
/// `bots` lists the bot accounts by ruleset key, with their ratings.
pub fn form(
    tickets: &[Waiting],
    bots: &BTreeMap<String, Vec<Bot>>,
    now: OffsetDateTime,
    settings: &Settings,
    rng: &mut impl Rng,
) -> Vec<Table> {
    let mut order: Vec<&Waiting> = tickets.iter().collect();
    order.sort_by_key(|t| (t.enqueued_at, t.id));
    let mut used: HashSet<TicketId> = HashSet::new();
    let mut tables = Vec::new();
    for anchor in &order {
        if used.contains(&anchor.id) {
            continue;
        }
        let candidates: Vec<&Waiting> = order
            .iter()
            .copied()
            .filter(|t| !used.contains(&t.id) && compatible(anchor, t, now, settings))
            .collect();
        let no_bots = Vec::new();
        let key_bots = bots.get(&anchor.ruleset_key).unwrap_or(&no_bots);
        let Some(mut table) = full_table(anchor, &candidates)
            .or_else(|| bot_table(anchor, &candidates, key_bots, now, settings))
        else {
            continue;
        };
        used.extend(table.tickets());
        table.seats.shuffle(rng);
        tables.push(table);
    }
    tables
}

/// Whether `other` may sit with `anchor` (the older ticket): same key and
/// guest-ness, another owner, a shared count, a rating in the window.
fn compatible(anchor: &Waiting, other: &Waiting, now: OffsetDateTime, s: &Settings) -> bool {
    other.id != anchor.id
        && other.owner != anchor.owner
        && other.ruleset_key == anchor.ruleset_key
        && other.guest == anchor.guest
        && other.counts.iter().any(|c| anchor.counts.contains(c))
        && (other.rating - anchor.rating).abs() <= window(anchor, now, s)
}

/// The rating window of the table's longest waiter.
fn window(anchor: &Waiting, now: OffsetDateTime, s: &Settings) -> f64 {
    s.window_base + s.window_per_second * waited(anchor, now).as_secs_f64()
}

fn waited(ticket: &Waiting, now: OffsetDateTime) -> Duration {
    (now - ticket.enqueued_at).try_into().unwrap_or_default()
}

/// Up to `wanted` candidates accepting `count`, one per owner, closest in
/// rating to the anchor first (then oldest).
fn closest<'a>(
    anchor: &Waiting,
    candidates: &[&'a Waiting],
    count: u32,
    wanted: usize,
    filter: impl Fn(&Waiting) -> bool,
) -> Vec<&'a Waiting> {
    let mut fitting: Vec<&Waiting> = candidates
        .iter()
        .copied()
        .filter(|t| t.counts.contains(&count) && filter(t))
        .collect();
    fitting.sort_by(|a, b| {
        let da = (a.rating - anchor.rating).abs();
        let db = (b.rating - anchor.rating).abs();
        da.total_cmp(&db).then(a.enqueued_at.cmp(&b.enqueued_at))
    });
    let mut owners = HashSet::from([anchor.owner]);
    fitting
        .into_iter()
        .filter(|t| owners.insert(t.owner))
        .take(wanted)
        .collect()
}

/// The bots that may join `anchor` and `others`, one per owner, closest in
/// rating to `mean` first.
fn free_bots<'a>(
    anchor: &Waiting,
    others: &[&Waiting],
    bots: &'a [Bot],
    mean: f64,
) -> Vec<&'a Bot> {
    let mut sorted: Vec<&Bot> = bots.iter().collect();
    sorted.sort_by(|a, b| {
        (a.rating - mean)
            .abs()
            .total_cmp(&(b.rating - mean).abs())
            .then(a.account.cmp(&b.account))
    });
    let mut owners: HashSet<i64> = std::iter::once(anchor.owner)
        .chain(others.iter().map(|t| t.owner))
        .collect();
    // An account's owner group is its own or its owner's, so a bot that
    // holds a ticket here shares that ticket's group too.
    sorted
        .into_iter()
        .filter(|b| owners.insert(b.owner))
        .collect()
}

/// The largest table of tickets only that the anchor can head.
fn full_table(anchor: &Waiting, candidates: &[&Waiting]) -> Option<Table> {
    let mut counts = anchor.counts.clone();
    counts.sort_unstable_by(|a, b| b.cmp(a));
    counts.into_iter().find_map(|count| {
        let need = usize::try_from(count).ok()?.checked_sub(1)?;
        let others = closest(anchor, candidates, count, need, |_| true);
        (others.len() == need).then(|| table(anchor, &others, &[]))
    })
}

/// After the fill wait: the most tickets that allow bots (then the table
/// nearest the usual size, the smaller of two as near), with bots of close
/// rating in the other seats.
fn bot_table(
    anchor: &Waiting,
    candidates: &[&Waiting],
    bots: &[Bot],
    now: OffsetDateTime,
    s: &Settings,
) -> Option<Table> {
    if !anchor.allow_bots || waited(anchor, now) < s.bot_fill_wait {
        return None;
    }
    let mut best: Option<(usize, u32, Vec<&Waiting>)> = None;
    for &count in &anchor.counts {
        let Ok(seats) = usize::try_from(count) else {
            continue;
        };
        let others = closest(anchor, candidates, count, seats.saturating_sub(1), |t| {
            t.allow_bots
        });
        let humans = others.len() + 1;
        let bot_seats = seats.saturating_sub(humans);
        let free = free_bots(anchor, &others, bots, anchor.rating).len();
        if bot_seats == 0 || bot_seats > free {
            continue;
        }
        let nearer = |c: u32| (count.abs_diff(anchor.usual), count) < (c.abs_diff(anchor.usual), c);
        let better = best
            .as_ref()
            .is_none_or(|(h, c, _)| humans > *h || humans == *h && nearer(*c));
        if better {
            best = Some((humans, count, others));
        }
    }
    let (humans, count, others) = best?;
    let mean = (anchor.rating + others.iter().map(|t| t.rating).sum::<f64>()) / humans as f64;
    let mut chosen = free_bots(anchor, &others, bots, mean);
    chosen.truncate(usize::try_from(count).ok()? - humans);
    Some(table(anchor, &others, &chosen))
}

fn table(anchor: &Waiting, others: &[&Waiting], bots: &[&Bot]) -> Table {
    let tickets = std::iter::once(anchor).chain(others.iter().copied());
    Table {
        ruleset_key: anchor.ruleset_key.clone(),
        rated: !anchor.guest,
        seats: tickets
            .map(|t| Seat::Ticket {
                id: t.id,
                account: t.account,
            })
            .chain(bots.iter().map(|b| Seat::Bot { account: b.account }))
            .collect(),
    }
}

#[cfg(test)]
mod tests;

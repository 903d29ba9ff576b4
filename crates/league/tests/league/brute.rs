//! The reference the search is checked against: every seating of a small
//! field, enumerated.

use skit_league::{History, PlayerId};

/// The smallest "most times two tablemates met before" over every seating
/// of `players` at tables of `sizes` whose every table passes `ok`; None
/// when no seating does.
pub fn least_worst_repeat(
    players: &[PlayerId],
    sizes: &[usize],
    history: &History,
    ok: &dyn Fn(&[PlayerId]) -> bool,
) -> Option<u32> {
    let mut best = None;
    let mut seated = vec![false; players.len()];
    let mut left = sizes.to_vec();
    left.sort();
    left.dedup();
    let mut counts: Vec<(usize, usize)> = left
        .iter()
        .map(|&s| (s, sizes.iter().filter(|&&x| x == s).count()))
        .collect();
    walk(players, &mut counts, history, ok, &mut seated, 0, &mut best);
    best
}

fn walk(
    players: &[PlayerId],
    counts: &mut Vec<(usize, usize)>,
    history: &History,
    ok: &dyn Fn(&[PlayerId]) -> bool,
    seated: &mut Vec<bool>,
    worst: u32,
    best: &mut Option<u32>,
) {
    if best.is_some_and(|b| b <= worst) {
        return;
    }
    let Some(head) = seated.iter().position(|s| !s) else {
        *best = Some(worst);
        return;
    };
    for c in 0..counts.len() {
        if counts[c].1 == 0 {
            continue;
        }
        counts[c].1 -= 1;
        seated[head] = true;
        let size = counts[c].0;
        let mut table = vec![head];
        choose(
            players,
            counts,
            history,
            ok,
            seated,
            worst,
            best,
            &mut table,
            size,
            head + 1,
        );
        seated[head] = false;
        counts[c].1 += 1;
    }
}

#[allow(clippy::too_many_arguments)]
fn choose(
    players: &[PlayerId],
    counts: &mut Vec<(usize, usize)>,
    history: &History,
    ok: &dyn Fn(&[PlayerId]) -> bool,
    seated: &mut Vec<bool>,
    worst: u32,
    best: &mut Option<u32>,
    table: &mut Vec<usize>,
    size: usize,
    from: usize,
) {
    if table.len() == size {
        let ids: Vec<PlayerId> = table.iter().map(|&t| players[t]).collect();
        if ok(&ids) {
            walk(players, counts, history, ok, seated, worst, best);
        }
        return;
    }
    for i in from..players.len() {
        if seated[i] {
            continue;
        }
        let here = table
            .iter()
            .map(|&t| history.met(players[t], players[i]))
            .max()
            .unwrap_or(0);
        seated[i] = true;
        table.push(i);
        choose(
            players,
            counts,
            history,
            ok,
            seated,
            worst.max(here),
            best,
            table,
            size,
            i + 1,
        );
        table.pop();
        seated[i] = false;
    }
}

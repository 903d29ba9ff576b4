//! What happened since the person last looked, in words: each move (with
//! what the person drew), who won each trick, why the same players play
//! again after a tie, the pile taken into the hand when phase one ends,
//! and what trumps mean once they are set. Pure functions from two views, the one shown before and
//! the new one, so they are tested without a service.

use std::collections::BTreeMap;

use skit_proto::v1::{EventKind, HistoryEvent, Phase, View};

use super::render::who;
use super::ties::tie_line;
use super::tricks::phase_two_wins;
use super::trumps::trump_lines;

/// Events shown when there is no earlier view (joining a game under way).
const FIRST_LOOK: usize = 6;

/// Lines telling what happened between `before` (the view shown last;
/// `None` at the first look) and `now`.
pub fn narrate(before: Option<&View>, now: &View) -> Vec<String> {
    let since = before.map_or(0, |b| b.version);
    let events: Vec<&HistoryEvent> = now.history.iter().filter(|e| e.version > since).collect();
    let skip = if before.is_none() {
        events.len().saturating_sub(FIRST_LOOK)
    } else {
        0
    };
    let wins = before.map_or_else(BTreeMap::new, |b| phase_two_wins(b, now));
    let pile = before
        .filter(|b| b.phase() == Phase::One && now.phase() != Phase::One)
        .and_then(|_| pile_taken(now, &events));
    let mut lines = Vec::new();
    for event in events.into_iter().skip(skip) {
        if Some(event.version) == pile {
            lines.extend(pile_line(now, event));
        } else {
            lines.extend(event_line(now, event));
        }
        if let Some(&seat) = wins.get(&event.version) {
            lines.push(format!(
                "{} won the trick; its cards are out of play.",
                who(now, seat)
            ));
        }
    }
    if let Some(before) = before {
        lines.extend(phase_one_wins(before, now));
        if before.phase() == Phase::One && now.phase() == Phase::Two && pile.is_none() {
            lines.push("Phase one is over: everyone takes their pile into their hand.".into());
        }
    }
    lines.extend(tie_line(before, now));
    let trumps_new = now.trump.is_some() && before.is_none_or(|b| b.trump.is_none());
    let phase_two_begins = before.is_some_and(|b| b.phase() == Phase::One);
    if now.phase() != Phase::Over && (trumps_new || phase_two_begins && now.phase() == Phase::Two) {
        lines.extend(trump_lines(now));
    }
    lines
}

/// The event that ended phase one, among `events` (which cross from phase
/// one to phase two): the first that gave the viewer cards it did not draw
/// from the stock. In phase one a seat draws only after its own play or
/// sluff, at most as many cards as it laid; the end of phase one gives
/// every seat its pile (and the trump card to its holder) on whichever
/// seat's move ended it.
fn pile_taken(view: &View, events: &[&HistoryEvent]) -> Option<u64> {
    events
        .iter()
        .filter(|e| e.kind() != EventKind::Shuffle && !e.private_cards.is_empty())
        .find(|e| e.seat != view.viewer_seat || e.private_cards.len() > e.cards.len())
        .map(|e| e.version)
}

/// The event that ended phase one, with the cards the viewer took into
/// its hand then: its pile (and the trump card, for its holder).
fn pile_line(view: &View, event: &HistoryEvent) -> Option<String> {
    let mut quiet = event.clone();
    quiet.private_cards.clear();
    let mut line = event_line(view, &quiet)?;
    line.push_str(&format!(
        " Phase one is over: everyone takes their pile into their hand; you took {}.",
        event.private_cards.join(" ")
    ));
    Some(line)
}

/// One event as a sentence: "Bo played 9C", "You played 4H and drew KS";
/// `None` for a shuffle that dealt the viewer nothing.
pub fn event_line(view: &View, event: &HistoryEvent) -> Option<String> {
    let who = event.seat.map(|s| who(view, s)).unwrap_or_default();
    let cards = event.cards.join(" ");
    let drew = event.private_cards.join(" ");
    let mut line = match event.kind() {
        EventKind::Play => format!("{who} played {cards}"),
        EventKind::Chance => format!("{who} took a chance: {cards}"),
        EventKind::Pickup => format!("{who} picked up {cards}"),
        EventKind::Sluff => format!("{who} sluffed {cards}"),
        EventKind::Pass => format!("{who} passed"),
        EventKind::Claim => format!("{who} claimed the trick"),
        EventKind::Rob => format!("{who} robbed {cards}"),
        EventKind::Bank => format!("{who} banked {cards}"),
        EventKind::Resign => format!("{who} resigned"),
        EventKind::Timeout => format!("{who} ran out of time"),
        EventKind::Forfeit => {
            format!("{who} ran out of time and forfeited: the clock plays on for them")
        }
        EventKind::Void => "An operator voided the game: it has no result".to_owned(),
        EventKind::Shuffle if !drew.is_empty() => return Some(format!("You were dealt {drew}.")),
        EventKind::Shuffle | EventKind::Unspecified => return None,
    };
    if !drew.is_empty() {
        let yours = event.seat.is_some() && event.seat == view.viewer_seat;
        line.push_str(&if yours {
            format!(" and drew {drew}")
        } else {
            format!("; you drew {drew}")
        });
    }
    if event.by_clock {
        line.push_str(" (the clock ran out)");
    }
    line.push('.');
    Some(line)
}

/// Phase one: a seat whose pile grew (by more than the trumps it banked)
/// won the tricks in between.
fn phase_one_wins(before: &View, now: &View) -> Vec<String> {
    if before.phase() != Phase::One || now.phase() != Phase::One {
        return Vec::new();
    }
    let banked = |seat: u32| -> usize {
        now.history
            .iter()
            .filter(|e| e.version > before.version && e.seat == Some(seat))
            .filter(|e| e.kind() == EventKind::Bank)
            .map(|e| e.cards.len())
            .sum()
    };
    now.seats
        .iter()
        .filter_map(|seat| {
            let earlier = before.seats.iter().find(|s| s.seat == seat.seat)?;
            let won = usize::try_from(seat.pile_size.checked_sub(earlier.pile_size)?)
                .ok()?
                .checked_sub(banked(seat.seat))
                .filter(|&n| n > 0)?;
            let pile = if now.viewer_seat == Some(seat.seat) {
                "your"
            } else {
                "their"
            };
            Some(format!(
                "{} won the trick: {won} cards to {pile} pile.",
                who(now, seat.seat)
            ))
        })
        .collect()
}

#[cfg(test)]
mod tests;

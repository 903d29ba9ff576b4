//! Who won the phase-two tricks completed between two views. The views
//! carry no "trick won" event: a trick is complete when the table holds
//! as many lays as its size (picked-up lays no longer count), and whoever
//! made the last lay won it. Replaying the new events on the earlier table
//! finds those moments; the result is checked against the new table, and
//! where the replay cannot be sure (a trick led and completed in between,
//! so its size was never shown, or ended early by a house rule) only what
//! the new table proves is said, or nothing.

use std::collections::BTreeMap;

use skit_proto::v1::{EventKind, Phase, View};

/// A lay on the replayed table: who, which cards, and the event that laid
/// it (`None`: already on the earlier table).
#[derive(Debug)]
struct Lay {
    seat: u32,
    cards: Vec<String>,
    version: Option<u64>,
}

/// The seat that won a trick, by the version of the event that completed
/// it, for the phase-two tricks completed after `before` up to `now`.
pub fn phase_two_wins(before: &View, now: &View) -> BTreeMap<u64, u32> {
    if before.phase() != Phase::Two || now.phase() != Phase::Two {
        return BTreeMap::new();
    }
    let mut lays: Vec<Lay> = before
        .table_lays
        .iter()
        .map(|l| Lay {
            seat: l.seat,
            cards: l.cards.clone(),
            version: None,
        })
        .collect();
    let mut size = before.trick_size.filter(|_| !lays.is_empty());
    let mut wins = BTreeMap::new();
    for event in now.history.iter().filter(|e| e.version > before.version) {
        let Some(seat) = event.seat else { continue };
        match event.kind() {
            EventKind::Play => {
                if lays.is_empty() {
                    size = None;
                }
                lays.push(Lay {
                    seat,
                    cards: event.cards.clone(),
                    version: Some(event.version),
                });
                if size.is_some_and(|n| usize::try_from(n).is_ok_and(|n| n == lays.len())) {
                    wins.insert(event.version, seat);
                    lays.clear();
                    size = None;
                }
            }
            EventKind::Pickup => {
                for lay in &mut lays {
                    lay.cards.retain(|c| !event.cards.contains(c));
                }
                lays.retain(|l| !l.cards.is_empty());
            }
            _ => {}
        }
    }
    let shown: Vec<(u32, &[String])> = now
        .table_lays
        .iter()
        .map(|l| (l.seat, l.cards.as_slice()))
        .collect();
    let replayed: Vec<(u32, &[String])> =
        lays.iter().map(|l| (l.seat, l.cards.as_slice())).collect();
    if replayed == shown {
        return wins;
    }
    // The replay missed a completion. What lies on the table now was laid
    // after the last one, so the lay just before it completed a trick.
    let Some(cut) = replayed.len().checked_sub(shown.len()) else {
        return BTreeMap::new();
    };
    if cut == 0 || replayed[cut..] != shown[..] {
        return BTreeMap::new();
    }
    let last = &lays[cut - 1];
    last.version
        .map(|v| BTreeMap::from([(v, last.seat)]))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use skit_proto::v1::{HistoryEvent, Lay as TableLay};

    use super::*;

    fn lay(seat: u32, cards: &[&str]) -> TableLay {
        TableLay {
            seat,
            cards: cards.iter().map(|c| c.to_string()).collect(),
        }
    }

    fn event(version: u64, kind: EventKind, seat: u32, cards: &[&str]) -> HistoryEvent {
        HistoryEvent {
            version,
            kind: kind.into(),
            seat: Some(seat),
            cards: cards.iter().map(|c| c.to_string()).collect(),
            ..HistoryEvent::default()
        }
    }

    fn phase_two(version: u64, table: Vec<TableLay>, size: Option<u32>) -> View {
        View {
            version,
            phase: Phase::Two.into(),
            table_lays: table,
            trick_size: size,
            ..View::default()
        }
    }

    #[test]
    fn the_lay_that_fills_the_trick_wins_it() {
        let before = phase_two(10, vec![lay(0, &["5H"])], Some(3));
        let mut now = phase_two(13, vec![lay(2, &["3C"])], Some(2));
        now.history = vec![
            event(11, EventKind::Play, 1, &["9H"]),
            event(12, EventKind::Play, 2, &["KH"]),
            event(13, EventKind::Play, 2, &["3C"]),
        ];

        assert_eq!(phase_two_wins(&before, &now), BTreeMap::from([(12, 2)]));
    }

    #[test]
    fn picked_up_lays_no_longer_count() {
        let before = phase_two(10, vec![lay(0, &["5H"])], Some(3));
        let mut now = phase_two(14, vec![], None);
        now.history = vec![
            event(11, EventKind::Play, 1, &["9H"]),
            event(12, EventKind::Pickup, 2, &["9H"]),
            event(13, EventKind::Play, 0, &["TH"]),
            event(14, EventKind::Play, 1, &["AH"]),
        ];

        assert_eq!(phase_two_wins(&before, &now), BTreeMap::from([(14, 1)]));
    }

    #[test]
    fn a_trick_led_and_won_in_between_is_read_off_the_new_table() {
        let before = phase_two(10, vec![], None);
        let mut now = phase_two(14, vec![lay(1, &["2D"])], Some(3));
        now.history = vec![
            event(11, EventKind::Play, 0, &["4S"]),
            event(12, EventKind::Play, 1, &["8S"]),
            event(13, EventKind::Play, 2, &["QS"]),
            event(14, EventKind::Play, 1, &["2D"]),
        ];

        assert_eq!(phase_two_wins(&before, &now), BTreeMap::from([(13, 2)]));
    }

    #[test]
    fn nothing_is_said_when_the_replay_does_not_fit() {
        let before = phase_two(10, vec![lay(0, &["5H"])], Some(3));
        let mut now = phase_two(11, vec![lay(0, &["JC"])], Some(2));
        now.history = vec![event(11, EventKind::Play, 1, &["9H"])];

        assert!(phase_two_wins(&before, &now).is_empty());
    }
}

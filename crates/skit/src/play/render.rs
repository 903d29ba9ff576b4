//! What a person sees at the terminal: a view as text, and each legal
//! action as a short label. Pure functions over the API's `View`, so they
//! are tested without a service.

use std::fmt::Write;
use std::time::SystemTime;

use skit_proto::v1::{Action, EventKind, HistoryEvent, Phase, View, action::Kind};

/// One action as a person reads it: "play 7C", "pick up".
pub fn action_label(action: &Action) -> String {
    match &action.kind {
        Some(Kind::Play(p)) => format!("play {}", p.cards.join(" ")),
        Some(Kind::Sluff(s)) => format!("sluff {}", s.cards.join(" ")),
        Some(Kind::Chance(_)) => "chance (play the top card of the stock)".into(),
        Some(Kind::Pickup(_)) => "pick up".into(),
        Some(Kind::Pass(_)) => "pass".into(),
        Some(Kind::Claim(_)) => "claim the trick".into(),
        Some(Kind::Rob(_)) => "rob (take the turned card for the two of trumps)".into(),
        Some(Kind::Bank(_)) => "bank three trumps".into(),
        None => "(nothing)".into(),
    }
}

fn phase_name(view: &View) -> &'static str {
    match view.phase() {
        Phase::One => "phase one",
        Phase::Two => "phase two",
        Phase::Over => "over",
        Phase::Unspecified => "starting",
    }
}

fn seat_name(view: &View, seat: u32) -> String {
    let info = view.seats.iter().find(|s| s.seat == seat);
    let name = info
        .and_then(|s| s.name.clone())
        .unwrap_or_else(|| "(open)".into());
    if view.viewer_seat == Some(seat) {
        format!("{name} (you)")
    } else if info.is_some_and(|s| s.is_bot) {
        format!("{name} [bot]")
    } else {
        name
    }
}

/// One history event as a line: "Bo played 9C".
pub fn event_line(view: &View, event: &HistoryEvent) -> Option<String> {
    let who = event.seat.map(|s| seat_name(view, s)).unwrap_or_default();
    let cards = event.cards.join(" ");
    let clock = if event.by_clock {
        " (clock ran out)"
    } else {
        ""
    };
    let line = match event.kind() {
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
        EventKind::Shuffle | EventKind::Unspecified => return None,
    };
    Some(format!("{line}{clock}"))
}

/// The whole table as the viewer sees it, ending with the numbered legal
/// actions when there are any.
pub fn render(view: &View, now: SystemTime) -> String {
    let mut out = String::new();
    let preset = view.rules.as_ref().map_or("?", |r| r.preset.as_str());
    let _ = writeln!(
        out,
        "-- {preset}, {} players, {}, version {} --",
        view.players,
        phase_name(view),
        view.version
    );
    let mut facts = Vec::new();
    if let Some(trump) = &view.trump {
        facts.push(format!("trumps {trump}"));
    }
    if let Some(card) = &view.trump_card {
        facts.push(format!("trump card {card}"));
    }
    facts.push(format!("stock {}", view.stock_size));
    if view.reserve_size > 0 {
        facts.push(format!("reserve {}", view.reserve_size));
    }
    let _ = writeln!(out, "{}", facts.join(", "));
    for seat in &view.seats {
        let marker = if view.to_act.contains(&seat.seat) {
            ">"
        } else {
            " "
        };
        let mut line = format!(
            "{marker} seat {}: {:<24} hand {:>2}",
            seat.seat,
            seat_name(view, seat.seat),
            seat.hand_size
        );
        if seat.pile_size > 0 {
            let _ = write!(line, ", pile {}", seat.pile_size);
        }
        if let Some(place) = seat.finishing_position {
            let _ = write!(line, ", place {place}");
        } else if seat.out {
            line.push_str(", out");
        }
        if let Some(rating) = &seat.rating {
            let _ = write!(line, ", rating {:.1}", rating.conservative);
        }
        if let Some(deadline) = &seat.deadline {
            let left = seconds_until(deadline.seconds, deadline.nanos, now);
            let _ = write!(line, ", {left}s left");
        }
        let _ = writeln!(out, "{line}");
    }
    if !view.table_cards.is_empty() {
        let cards: Vec<String> = view
            .table_cards
            .iter()
            .map(|c| {
                let sluff = if c.is_sluff { " (sluff)" } else { "" };
                format!("{} {}{sluff}", seat_name(view, c.seat), c.card)
            })
            .collect();
        let _ = writeln!(out, "Table: {}", cards.join(", "));
    }
    if !view.table_lays.is_empty() {
        let lays: Vec<String> = view
            .table_lays
            .iter()
            .map(|l| format!("{} {}", seat_name(view, l.seat), l.cards.join(" ")))
            .collect();
        let _ = writeln!(out, "Table: {}", lays.join(", "));
    }
    let recent: Vec<String> = view
        .history
        .iter()
        .filter_map(|e| event_line(view, e))
        .collect();
    for line in recent.iter().skip(recent.len().saturating_sub(4)) {
        let _ = writeln!(out, "  . {line}");
    }
    if view.viewer_seat.is_some() && view.phase() != Phase::Over {
        let _ = writeln!(out, "Your hand: {}", view.hand.join(" "));
    }
    if let Some(result) = &view.result {
        let _ = match result.loser {
            Some(loser) => writeln!(
                out,
                "Game over: {} is the skitgubbe.",
                seat_name(view, loser)
            ),
            None => writeln!(out, "Game over: drawn by the action limit."),
        };
    } else if !view.legal_actions.is_empty() {
        let _ = writeln!(out, "Your move:");
        for (i, action) in view.legal_actions.iter().enumerate() {
            let _ = writeln!(out, "  {}) {}", i + 1, action_label(action));
        }
    }
    out
}

fn seconds_until(seconds: i64, nanos: i32, now: SystemTime) -> i64 {
    let now = now
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64);
    let at = seconds * 1000 + i64::from(nanos) / 1_000_000;
    ((at - now) / 1000).max(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use skit_proto::v1::{GameResult, PlayAction, Rules, SeatInfo, TableCard};

    fn play(cards: &[&str]) -> Action {
        Action {
            kind: Some(Kind::Play(PlayAction {
                cards: cards.iter().map(|c| c.to_string()).collect(),
            })),
        }
    }

    fn view() -> View {
        View {
            version: 7,
            phase: Phase::One.into(),
            rules: Some(Rules {
                preset: "skitgubbe".into(),
                options: None,
            }),
            players: 2,
            viewer_seat: Some(0),
            to_act: vec![0],
            stock_size: 30,
            seats: vec![
                SeatInfo {
                    seat: 0,
                    name: Some("Ada".into()),
                    hand_size: 3,
                    ..SeatInfo::default()
                },
                SeatInfo {
                    seat: 1,
                    name: Some("greedy-1".into()),
                    is_bot: true,
                    hand_size: 3,
                    ..SeatInfo::default()
                },
            ],
            hand: vec!["2C".into(), "9H".into(), "KS".into()],
            table_cards: vec![TableCard {
                seat: 1,
                card: "8H".into(),
                is_sluff: false,
            }],
            legal_actions: vec![
                play(&["9H"]),
                Action {
                    kind: Some(Kind::Chance(true)),
                },
            ],
            ..View::default()
        }
    }

    #[test]
    fn shows_hand_table_and_numbered_moves() {
        let text = render(&view(), SystemTime::UNIX_EPOCH);
        assert!(text.contains("Your hand: 2C 9H KS"), "{text}");
        assert!(text.contains("Table: greedy-1 [bot] 8H"), "{text}");
        assert!(text.contains("> seat 0: Ada (you)"), "{text}");
        assert!(text.contains("  1) play 9H\n  2) chance"), "{text}");
    }

    #[test]
    fn a_finished_game_names_the_loser_and_offers_nothing() {
        let mut v = view();
        v.phase = Phase::Over.into();
        v.result = Some(GameResult {
            loser: Some(1),
            ..GameResult::default()
        });
        let text = render(&v, SystemTime::UNIX_EPOCH);
        assert!(text.contains("greedy-1 [bot] is the skitgubbe"), "{text}");
        assert!(!text.contains("Your move"), "{text}");
    }
}

//! The table as a person sees it at the terminal: the game and phase,
//! trumps, each seat (whose turn, cards held, clocks counting down), the
//! cards on the table, the person's hand (wrapped to the width) and their
//! numbered moves. Pure functions over the API's `View`, so they are
//! tested without a service; what happened in between is
//! [`super::narrate`]'s.

use crate::lang::tr;
use std::fmt::Write;
use std::time::SystemTime;

use skit_proto::v1::{Phase, SeatInfo, View};

use super::moves::render_moves;
use super::text::{clock, seconds_until, suit_name, wrap};

fn phase_name(view: &View) -> &'static str {
    match view.phase() {
        Phase::One => "phase one (collecting)",
        Phase::Two => "phase two (shedding)",
        Phase::Over => "over",
        Phase::Unspecified => "starting",
    }
}

/// A seat as the table lists it: "Ada (you)", "greedy-1 [bot]".
pub fn seat_name(view: &View, seat: u32) -> String {
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

/// A seat as the subject of a sentence: "You" for the viewer.
pub fn who(view: &View, seat: u32) -> String {
    if view.viewer_seat == Some(seat) {
        "You".into()
    } else {
        seat_name(view, seat)
    }
}

/// The seat's clock: the time left on its running move, and its bank.
fn seat_clock(seat: &SeatInfo, now: SystemTime) -> Option<String> {
    let running = seat
        .deadline
        .as_ref()
        .map(|d| format!("{} left", clock(seconds_until(d.seconds, d.nanos, now))));
    let bank = seat
        .time_left
        .as_ref()
        .map(|d| format!("bank {}", clock(d.seconds)));
    match (running, bank) {
        (Some(r), Some(b)) => Some(format!("{r} ({b})")),
        (r, b) => r.or(b),
    }
}

/// The prompt for the person's move, with their clock when it runs:
/// "> " or "[0:25 left] > ".
pub fn prompt(view: &View, now: SystemTime) -> String {
    let mine = view
        .viewer_seat
        .and_then(|s| view.seats.iter().find(|i| i.seat == s))
        .and_then(|s| s.deadline.as_ref());
    match mine {
        Some(d) => format!(
            "[{} left] > ",
            clock(seconds_until(d.seconds, d.nanos, now))
        ),
        None => "> ".into(),
    }
}

/// The whole table as the viewer sees it at `now`, ending with the
/// numbered moves when the viewer has any, laid out within `width`.
pub fn render(view: &View, now: SystemTime, width: usize) -> String {
    let mut out = String::new();
    let preset = view.rules.as_ref().map_or("?", |r| r.preset.as_str());
    let _ = writeln!(
        out,
        "-- {preset}, {} players, {} --",
        view.players,
        phase_name(view)
    );
    let mut facts = Vec::new();
    if let Some(trump) = &view.trump {
        facts.push(format!("trumps: {}", suit_name(trump)));
    }
    if let Some(card) = &view.trump_card {
        facts.push(format!("trump card {card}"));
    }
    if view.phase() == Phase::One {
        facts.push(format!("stock {}", view.stock_size));
    }
    if view.reserve_size > 0 {
        facts.push(format!("reserve {}", view.reserve_size));
    }
    if let Some(size) = view.trick_size {
        facts.push(format!("trick of {size}"));
    }
    if !facts.is_empty() {
        let _ = writeln!(out, "{}", facts.join(", "));
    }
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
        // A rating with no rated game behind it (a guest's, a new bot's)
        // is only the starting estimate: not shown as if it were earned.
        if let Some(rating) = seat.rating.as_ref().filter(|r| r.games > 0) {
            let _ = write!(line, ", rating {:.1}", rating.conservative);
        }
        if let Some(clock) = seat_clock(seat, now) {
            let _ = write!(line, ", {clock}");
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
        let _ = writeln!(out, "{}", wrap("Table: ", &comma(cards), " ", 7, width));
    }
    if !view.table_lays.is_empty() {
        let lays: Vec<String> = view
            .table_lays
            .iter()
            .map(|l| format!("{} {}", seat_name(view, l.seat), l.cards.join(" ")))
            .collect();
        let _ = writeln!(out, "{}", wrap("Table: ", &comma(lays), " ", 7, width));
    }
    if view.viewer_seat.is_some() && view.phase() != Phase::Over {
        let _ = writeln!(out, "{}", wrap("Your hand: ", &view.hand, " ", 11, width));
    }
    if let Some(result) = &view.result {
        let _ = match result.loser {
            Some(loser) => writeln!(
                out,
                "{}",
                tr("skit-game-over-loser", &[("name", &seat_name(view, loser))])
            ),
            None => writeln!(out, "{}", tr("skit-game-over-drawn", &[])),
        };
    } else if !view.legal_actions.is_empty() {
        out.push_str(&render_moves(view, width));
    }
    out
}

/// Items joined by ", " as wrap items (each but the last ends in a comma).
fn comma(items: Vec<String>) -> Vec<String> {
    let last = items.len().saturating_sub(1);
    items
        .into_iter()
        .enumerate()
        .map(|(i, item)| if i < last { format!("{item},") } else { item })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use skit_proto::v1::{Action, GameResult, PlayAction, Rules, TableCard, action::Kind};

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
        let text = render(&view(), SystemTime::UNIX_EPOCH, 80);
        assert!(text.contains("Your hand: 2C 9H KS"), "{text}");
        assert!(text.contains("Table: greedy-1 [bot] 8H"), "{text}");
        assert!(text.contains("> seat 0: Ada (you)"), "{text}");
        assert!(text.contains("  1) play 9H\n  2) chance"), "{text}");
    }

    #[test]
    fn only_a_rating_earned_in_rated_games_is_shown() {
        let mut v = view();
        let rating = |games, conservative| skit_proto::v1::Rating {
            conservative,
            games,
            ..Default::default()
        };
        v.seats[0].rating = Some(rating(0, 0.0));
        v.seats[1].rating = Some(rating(12, 17.3));

        let text = render(&v, SystemTime::UNIX_EPOCH, 80);

        let line = |name: &str| {
            text.lines()
                .find(|l| l.contains(name))
                .unwrap_or_else(|| panic!("{name}: {text}"))
                .to_owned()
        };
        assert!(!line("Ada").contains("rating"), "{text}");
        assert!(!text.contains("0.0"), "{text}");
        assert!(line("greedy-1").contains(", rating 17.3"), "{text}");
    }

    #[test]
    fn a_finished_game_names_the_loser_and_offers_nothing() {
        let mut v = view();
        v.phase = Phase::Over.into();
        v.result = Some(GameResult {
            loser: Some(1),
            ..GameResult::default()
        });
        let text = render(&v, SystemTime::UNIX_EPOCH, 80);
        assert!(text.contains("greedy-1 [bot] is the skitgubbe"), "{text}");
        assert!(!text.contains("Your move"), "{text}");
    }

    #[test]
    fn the_header_names_game_and_phase_without_internal_counters() {
        let text = render(&view(), SystemTime::UNIX_EPOCH, 80);

        let header = text.lines().next().expect("a header");
        assert_eq!(header, "-- skitgubbe, 2 players, phase one (collecting) --");
        assert!(!text.contains("version"), "{text}");
    }

    #[test]
    fn a_long_hand_wraps_under_itself() {
        let mut v = view();
        v.hand = [
            "2C", "2D", "3H", "4S", "5C", "6D", "7H", "8S", "9C", "TD", "JH", "QS",
        ]
        .iter()
        .map(|c| c.to_string())
        .collect();

        let text = render(&v, SystemTime::UNIX_EPOCH, 40);

        assert!(
            text.contains("Your hand: 2C 2D 3H 4S 5C 6D 7H 8S 9C TD\n           JH QS\n"),
            "{text}"
        );
    }

    #[test]
    fn clocks_count_down_on_the_seat_and_the_prompt() {
        let mut v = view();
        let mut deadline = v.seats[0].deadline.unwrap_or_default();
        deadline.seconds = 125;
        v.seats[0].deadline = Some(deadline);
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(100);
        let later = now + Duration::from_secs(20);

        let text = render(&v, now, 80);

        assert!(
            text.contains("Ada (you)") && text.contains(", 0:25 left"),
            "{text}"
        );
        assert_eq!(prompt(&v, now), "[0:25 left] > ");
        assert_eq!(prompt(&v, later), "[0:05 left] > ");
        v.seats[0].deadline = None;
        assert_eq!(prompt(&v, now), "> ");
    }

    #[test]
    fn moves_are_listed_in_the_hands_order() {
        let mut v = view();
        v.legal_actions = vec![play(&["KS"]), play(&["2C"]), play(&["9H"])];

        let text = render(&v, SystemTime::UNIX_EPOCH, 80);

        assert!(
            text.contains("1) play 2C   2) play 9H   3) play KS"),
            "{text}"
        );
    }

    #[test]
    fn trumps_are_named_by_suit() {
        let mut v = view();
        v.phase = Phase::Two.into();
        v.trump = Some("H".into());
        v.trump_card = Some("7H".into());

        let text = render(&v, SystemTime::UNIX_EPOCH, 80);

        assert!(text.contains("trumps: hearts, trump card 7H"), "{text}");
        assert!(!text.contains("stock 30"), "no stock in phase two: {text}");
    }
}

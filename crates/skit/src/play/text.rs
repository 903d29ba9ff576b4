//! Small text helpers of the terminal game: suit names, clocks as
//! minutes and seconds, and wrapping words to the terminal's width.

use std::time::SystemTime;

/// The width the table is laid out for: `COLUMNS` when the shell exports
/// it, else the classic 80.
pub fn width() -> usize {
    std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.parse().ok())
        .filter(|&w: &usize| w >= 40)
        .unwrap_or(80)
}

/// "hearts" for "H"; the letter itself if it is no suit.
pub fn suit_name(suit: &str) -> &str {
    match suit {
        "C" => "clubs",
        "D" => "diamonds",
        "H" => "hearts",
        "S" => "spades",
        other => other,
    }
}

/// Whole seconds as "m:ss" ("0:07", "12:30").
pub fn clock(seconds: i64) -> String {
    let seconds = seconds.max(0);
    format!("{}:{:02}", seconds / 60, seconds % 60)
}

/// Whole seconds from `now` until a protobuf timestamp, never negative.
pub fn seconds_until(seconds: i64, nanos: i32, now: SystemTime) -> i64 {
    let now_ms = now
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX));
    let at_ms = seconds.saturating_mul(1000) + i64::from(nanos) / 1_000_000;
    // Rounded up: "0:01 left" until the deadline has passed.
    let left_ms = (at_ms - now_ms).max(0);
    (left_ms + 999) / 1000
}

/// `items` after `first`, separated by `gap`, in lines no wider than
/// `width`; lines after the first start with `indent` spaces. An item
/// wider than a line gets a line of its own.
pub fn wrap(first: &str, items: &[String], gap: &str, indent: usize, width: usize) -> String {
    let mut out = String::from(first);
    let mut line_len = first.chars().count();
    let mut at_start = true;
    for item in items {
        let len = item.chars().count();
        if !at_start && line_len + gap.len() + len > width {
            out.push('\n');
            out.push_str(&" ".repeat(indent));
            line_len = indent;
            at_start = true;
        }
        if !at_start {
            out.push_str(gap);
            line_len += gap.len();
        }
        out.push_str(item);
        line_len += len;
        at_start = false;
    }
    out
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn clocks_read_as_minutes_and_seconds() {
        assert_eq!(clock(7), "0:07");
        assert_eq!(clock(750), "12:30");
        assert_eq!(clock(-3), "0:00");
    }

    #[test]
    fn time_left_counts_down_and_stops_at_zero() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_millis(100_500);
        assert_eq!(seconds_until(125, 0, now), 25);
        assert_eq!(seconds_until(100, 600_000_000, now), 1);
        assert_eq!(seconds_until(90, 0, now), 0);
    }

    #[test]
    fn long_lists_wrap_under_their_first_item() {
        let cards: Vec<String> = ["2C", "3C", "4C", "5C", "6C", "7C"]
            .iter()
            .map(|c| c.to_string())
            .collect();

        let text = wrap("Hand: ", &cards, " ", 6, 16);

        assert_eq!(text, "Hand: 2C 3C 4C\n      5C 6C 7C");
    }
}

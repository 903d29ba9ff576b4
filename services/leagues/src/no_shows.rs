//! Repeated no-shows: a player who lost tournament tables on time (never
//! came, or left) twice or more within [`WINDOW`] may not register again
//! for a while, doubling with each further one: a day after the second,
//! two after the third, four after the fourth, at most [`LONGEST`].

use time::{Duration, OffsetDateTime};

/// How far back no-shows count.
pub const WINDOW: Duration = Duration::days(90);
/// The longest bar.
const LONGEST: Duration = Duration::days(30);
/// No-shows forgiven without a bar.
const FORGIVEN: usize = 1;

/// Until when a player with no-shows at `times` (newest first, within
/// [`WINDOW`]) is barred, if they are at `now`.
pub fn barred_until(times: &[OffsetDateTime], now: OffsetDateTime) -> Option<OffsetDateTime> {
    let latest = *times.first()?;
    let extra = times.len().checked_sub(FORGIVEN + 1)?;
    let days = 1i64 << extra.min(5);
    let until = latest + Duration::days(days).min(LONGEST);
    (now < until).then_some(until)
}

#[cfg(test)]
mod tests {
    use time::macros::datetime;

    use super::*;

    const NOW: OffsetDateTime = datetime!(2026-11-20 12:00 UTC);

    fn hours_ago(h: &[i64]) -> Vec<OffsetDateTime> {
        h.iter().map(|&h| NOW - Duration::hours(h)).collect()
    }

    #[test]
    fn one_no_show_is_forgiven() {
        assert_eq!(barred_until(&hours_ago(&[1]), NOW), None);
        assert_eq!(barred_until(&[], NOW), None);
    }

    #[test]
    fn the_bar_doubles_with_each_no_show_and_is_capped() {
        let two = hours_ago(&[1, 30]);
        assert_eq!(
            barred_until(&two, NOW),
            Some(NOW - Duration::hours(1) + Duration::days(1))
        );
        let three = hours_ago(&[1, 30, 60]);
        assert_eq!(
            barred_until(&three, NOW),
            Some(NOW - Duration::hours(1) + Duration::days(2))
        );
        let many: Vec<i64> = (1..20).collect();
        assert_eq!(
            barred_until(&hours_ago(&many), NOW),
            Some(NOW - Duration::hours(1) + Duration::days(30))
        );
    }

    #[test]
    fn a_bar_ends() {
        assert_eq!(barred_until(&hours_ago(&[25, 30]), NOW), None);
    }
}

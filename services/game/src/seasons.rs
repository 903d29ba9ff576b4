//! Seasons' periods and tracks: which period of a season a moment falls in
//! (a cron recurrence read in the season's time zone, with `croner`), the
//! soft reset a player's first game of a period starts from, and when a
//! season rating stops being provisional.

use std::str::FromStr;

use chrono::{DateTime, Utc};
use chrono_tz::Tz;
use croner::Cron;
use skit_store::{Season, SeasonTrack, Skill};
use time::OffsetDateTime;

use crate::rating_model::START;

/// The uncertainty added (in quadrature) to the lifetime rating's at a
/// period's start: half the starting uncertainty.
const RESET_SIGMA: f64 = START.sigma / 2.0;
/// A season rating is provisional while its uncertainty is above this:
/// about a third of the starting uncertainty, some ten games in.
pub const PROVISIONAL_SIGMA: f64 = 3.0;

/// A season's recurrence: its cron expression (none: one period) and the
/// time zone it is read in.
#[derive(Debug, Clone)]
pub struct Schedule {
    cron: Option<Cron>,
    zone: Tz,
}

/// Why a recurrence or time zone is refused: the field and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadSchedule {
    pub field: &'static str,
    pub message: String,
}

impl Schedule {
    pub fn parse(recurrence: &str, time_zone: &str) -> Result<Self, BadSchedule> {
        let zone = match time_zone {
            "" => Tz::UTC,
            name => Tz::from_str(name).map_err(|_| BadSchedule {
                field: "time_zone",
                message: format!("{name:?} is not an IANA time zone"),
            })?,
        };
        let cron = match recurrence.trim() {
            "" => None,
            text => Some(Cron::from_str(text).map_err(|e| BadSchedule {
                field: "recurrence",
                message: format!("not a cron expression: {e}"),
            })?),
        };
        Ok(Self { cron, zone })
    }

    /// A stored season's schedule; one period if it no longer parses.
    pub fn of(season: &Season) -> Self {
        Self::parse(&season.recurrence, &season.time_zone).unwrap_or(Self {
            cron: None,
            zone: Tz::UTC,
        })
    }

    /// The period of `season` that `at` falls in: its start and its end
    /// (none: open-ended). `None` before the season starts or after it
    /// ends.
    pub fn period(
        &self,
        season: &Season,
        at: OffsetDateTime,
    ) -> Option<(OffsetDateTime, Option<OffsetDateTime>)> {
        if at < season.starts_at || season.ends_at.is_some_and(|end| at >= end) {
            return None;
        }
        let Some(cron) = &self.cron else {
            return Some((season.starts_at, season.ends_at));
        };
        // Occurrences are whole seconds: from a moment with a fraction,
        // croner keeps the fraction, and a period must have one name.
        let local = to_chrono(at.replace_nanosecond(0).ok()?)?.with_timezone(&self.zone);
        let previous = cron
            .find_previous_occurrence(&local, true)
            .ok()
            .and_then(|t| from_chrono(t.with_timezone(&Utc)));
        let next = cron
            .find_next_occurrence(&local, false)
            .ok()
            .and_then(|t| from_chrono(t.with_timezone(&Utc)));
        let start = previous.map_or(season.starts_at, |p| p.max(season.starts_at));
        let end = match (next, season.ends_at) {
            (Some(n), Some(e)) => Some(n.min(e)),
            (n, e) => n.or(e),
        };
        Some((start, end))
    }
}

/// The track of `season` a game ended at `at` counts toward, if any.
pub fn track(season: &Season, at: OffsetDateTime) -> Option<SeasonTrack> {
    let (period_start, _) = Schedule::of(season).period(season, at)?;
    Some(SeasonTrack {
        season_id: season.id.clone(),
        period_start,
    })
}

/// Where a player's first game of a period starts: their lifetime skill,
/// its uncertainty raised by [`RESET_SIGMA`] (never above the start's).
pub fn soft_reset(lifetime: Skill) -> Skill {
    Skill {
        mu: lifetime.mu,
        sigma: lifetime.sigma.hypot(RESET_SIGMA).min(START.sigma),
    }
}

fn to_chrono(t: OffsetDateTime) -> Option<DateTime<Utc>> {
    DateTime::from_timestamp(t.unix_timestamp(), t.nanosecond())
}

fn from_chrono(t: DateTime<Utc>) -> Option<OffsetDateTime> {
    let at = OffsetDateTime::from_unix_timestamp(t.timestamp()).ok()?;
    Some(at + time::Duration::nanoseconds(i64::from(t.timestamp_subsec_nanos())))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use time::macros::datetime;

    use super::*;

    fn season(recurrence: &str, zone: &str) -> Season {
        Season {
            id: "s".into(),
            name: "monthly".into(),
            ruleset_key: "skitgubbe".into(),
            starts_at: datetime!(2026-01-10 12:00 UTC),
            ends_at: Some(datetime!(2026-06-01 00:00 UTC)),
            recurrence: recurrence.into(),
            time_zone: zone.into(),
            divisions: None,
            created_by: skit_store::AccountId(1),
            request_id: None,
            created_at: datetime!(2026-01-01 00:00 UTC),
        }
    }

    #[test]
    fn a_monthly_season_runs_from_one_first_of_the_month_to_the_next_in_its_zone() {
        let s = season("0 0 1 * *", "Europe/Stockholm");
        let schedule = Schedule::of(&s);
        // Midnight in Stockholm is 23:00 UTC the day before in winter.
        let (start, end) = schedule
            .period(&s, datetime!(2026-02-14 09:00 UTC))
            .unwrap();
        assert_eq!(start, datetime!(2026-01-31 23:00 UTC));
        assert_eq!(end, Some(datetime!(2026-02-28 23:00 UTC)));
        // The first period starts with the season, not at the month's start.
        let (start, _) = schedule
            .period(&s, datetime!(2026-01-20 00:00 UTC))
            .unwrap();
        assert_eq!(start, datetime!(2026-01-10 12:00 UTC));
        // Summer time: June starts at 22:00 UTC; what is left of the season
        // after that is a period that ends with the season.
        let (_, end) = schedule
            .period(&s, datetime!(2026-05-20 00:00 UTC))
            .unwrap();
        assert_eq!(end, Some(datetime!(2026-05-31 22:00 UTC)));
        let last = schedule
            .period(&s, datetime!(2026-05-31 23:00 UTC))
            .unwrap();
        assert_eq!(last, (datetime!(2026-05-31 22:00 UTC), s.ends_at));
        // A moment with a fraction of a second names the same period.
        let (start, _) = schedule
            .period(&s, datetime!(2026-01-31 23:00:00.25 UTC))
            .unwrap();
        assert_eq!(start, datetime!(2026-01-31 23:00 UTC));
        // Outside the season: no period.
        assert_eq!(schedule.period(&s, datetime!(2026-01-09 00:00 UTC)), None);
        assert_eq!(schedule.period(&s, datetime!(2026-06-01 00:00 UTC)), None);
    }

    #[test]
    fn without_a_recurrence_the_season_is_one_period() {
        let s = season("", "");
        let (start, end) = Schedule::of(&s)
            .period(&s, datetime!(2026-03-01 00:00 UTC))
            .unwrap();
        assert_eq!((start, end), (s.starts_at, s.ends_at));
    }

    #[test]
    fn bad_recurrences_and_zones_name_their_field() {
        assert_eq!(
            Schedule::parse("every monday", "UTC").unwrap_err().field,
            "recurrence"
        );
        assert_eq!(
            Schedule::parse("0 0 * * 1", "Mars/Olympus")
                .unwrap_err()
                .field,
            "time_zone"
        );
    }

    #[test]
    fn the_soft_reset_keeps_the_skill_and_raises_the_uncertainty() {
        let settled = Skill {
            mu: 30.0,
            sigma: 2.0,
        };
        let reset = soft_reset(settled);
        assert_eq!(reset.mu, 30.0);
        assert!(
            reset.sigma > settled.sigma && reset.sigma <= START.sigma,
            "{reset:?}"
        );
        assert_eq!(soft_reset(START).sigma, START.sigma);
    }
}

//! Turn clocks: a game's time control (checked once, at creation, and kept
//! in event 0) and each seat's clock, derived from the times of the stored
//! events so that a replay after a restart gives the same deadlines.
//!
//! A seat's clock runs while it must act for the game to go on: it is in
//! the engine's public to-act set (the seat due, or a seat that must still
//! sluff or pass in a window) and has a legal action. Optional actions
//! (robbing or banking in `mas`, sluffing outside a window) run no clock.
//! No clock runs while a seat is open.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use skit_api::ApiError;
use skit_engine::{Game, Seat, SeatSet};
use skit_proto::v1;
use time::OffsetDateTime;

/// The longest per-move limit or initial bank.
const MAX_LIMIT: Duration = Duration::from_secs(24 * 3600);
/// The largest bank increment.
const MAX_INCREMENT: Duration = Duration::from_secs(3600);

/// How much time a seat gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Limit {
    /// The same limit for every move; unused time is lost.
    PerMove { ms: u64 },
    /// A bank per seat, plus an increment after each of its moves.
    Bank { initial_ms: u64, increment_ms: u64 },
    /// A limit for every move, and a bank per seat that pays only for the
    /// time a move takes beyond it, plus an increment after each move.
    Overage {
        per_move_ms: u64,
        bank_ms: u64,
        increment_ms: u64,
    },
}

impl Limit {
    /// The bank a seat starts with (none for a per-move limit).
    fn initial_bank(self) -> u64 {
        match self {
            Self::PerMove { .. } => 0,
            Self::Bank { initial_ms, .. } => initial_ms,
            Self::Overage { bank_ms, .. } => bank_ms,
        }
    }

    /// What a seat's bank gets after each of its moves.
    fn increment(self) -> u64 {
        match self {
            Self::PerMove { .. } => 0,
            Self::Bank { increment_ms, .. } | Self::Overage { increment_ms, .. } => increment_ms,
        }
    }

    /// The time a move has before its seat's bank is charged.
    fn free(self) -> u64 {
        match self {
            Self::PerMove { ms } => ms,
            Self::Bank { .. } => 0,
            Self::Overage { per_move_ms, .. } => per_move_ms,
        }
    }
}

/// What the service does when a seat's time runs out (outside a window,
/// where the seat always passes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OnTimeout {
    BotMove,
    Lose,
    /// The seat forfeits alone (last place), the clock plays it from then
    /// on, and the others play on (`live/forfeit.rs`).
    Forfeit,
}

/// A validated time control, as stored in event 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimeControl {
    pub limit: Limit,
    pub on_timeout: OnTimeout,
}

fn millis(
    d: &pbjson_types::Duration,
    field: &str,
    range: (Duration, Duration),
) -> Result<u64, ApiError> {
    let (min, max) = range;
    let bad = || {
        ApiError::invalid(
            field,
            format!("must be between {} and {}", human(min), human(max)),
        )
    };
    if d.seconds < 0 || d.nanos < 0 {
        return Err(bad());
    }
    let given = Duration::new(d.seconds.unsigned_abs(), d.nanos.unsigned_abs());
    if given < min || given > max {
        return Err(bad());
    }
    u64::try_from(given.as_millis()).map_err(|_| bad())
}

fn human(d: Duration) -> String {
    match d.as_millis() {
        ms if ms % 3_600_000 == 0 && ms > 0 => format!("{}h", ms / 3_600_000),
        ms if ms % 1000 == 0 => format!("{}s", ms / 1000),
        ms => format!("{ms}ms"),
    }
}

impl TimeControl {
    /// Checks a request's time control; `min` is the shortest limit the
    /// service allows. `ON_TIMEOUT_UNSPECIFIED` means a bot move.
    pub fn from_request(tc: &v1::TimeControl, min: Duration) -> Result<Self, ApiError> {
        let limit = match &tc.clock {
            None => {
                return Err(ApiError::invalid(
                    "time_control.clock",
                    "set per_move, bank or overage",
                ));
            }
            Some(v1::time_control::Clock::PerMove(d)) => Limit::PerMove {
                ms: millis(d, "time_control.per_move", (min, MAX_LIMIT))?,
            },
            Some(v1::time_control::Clock::Bank(bank)) => {
                let initial = bank
                    .initial
                    .as_ref()
                    .ok_or_else(|| ApiError::invalid("time_control.bank.initial", "is required"))?;
                let increment = bank.increment.unwrap_or_default();
                Limit::Bank {
                    initial_ms: millis(initial, "time_control.bank.initial", (min, MAX_LIMIT))?,
                    increment_ms: millis(
                        &increment,
                        "time_control.bank.increment",
                        (Duration::ZERO, MAX_INCREMENT),
                    )?,
                }
            }
            Some(v1::time_control::Clock::Overage(overage)) => {
                let required = |d: &Option<pbjson_types::Duration>, field: &str| {
                    d.ok_or_else(|| ApiError::invalid(field, "is required"))
                };
                let per_move = required(&overage.per_move, "time_control.overage.per_move")?;
                let bank = required(&overage.bank, "time_control.overage.bank")?;
                let increment = overage.increment.unwrap_or_default();
                Limit::Overage {
                    per_move_ms: millis(
                        &per_move,
                        "time_control.overage.per_move",
                        (min, MAX_LIMIT),
                    )?,
                    bank_ms: millis(
                        &bank,
                        "time_control.overage.bank",
                        (Duration::ZERO, MAX_LIMIT),
                    )?,
                    increment_ms: millis(
                        &increment,
                        "time_control.overage.increment",
                        (Duration::ZERO, MAX_INCREMENT),
                    )?,
                }
            }
        };
        let on_timeout = match v1::OnTimeout::try_from(tc.on_timeout) {
            Ok(v1::OnTimeout::Unspecified | v1::OnTimeout::BotMove) => OnTimeout::BotMove,
            Ok(v1::OnTimeout::Lose) => OnTimeout::Lose,
            Ok(v1::OnTimeout::Forfeit) => OnTimeout::Forfeit,
            Err(_) => {
                return Err(ApiError::invalid(
                    "time_control.on_timeout",
                    format!("unknown value {}", tc.on_timeout),
                ));
            }
        };
        Ok(Self { limit, on_timeout })
    }

    /// The API message, with the resolved `on_timeout`.
    pub fn message(&self) -> v1::TimeControl {
        let clock = match self.limit {
            Limit::PerMove { ms } => v1::time_control::Clock::PerMove(duration(ms)),
            Limit::Bank {
                initial_ms,
                increment_ms,
            } => v1::time_control::Clock::Bank(v1::time_control::Bank {
                initial: Some(duration(initial_ms)),
                increment: Some(duration(increment_ms)),
            }),
            Limit::Overage {
                per_move_ms,
                bank_ms,
                increment_ms,
            } => v1::time_control::Clock::Overage(v1::time_control::Overage {
                per_move: Some(duration(per_move_ms)),
                bank: Some(duration(bank_ms)),
                increment: Some(duration(increment_ms)),
            }),
        };
        let on_timeout = match self.on_timeout {
            OnTimeout::BotMove => v1::OnTimeout::BotMove,
            OnTimeout::Lose => v1::OnTimeout::Lose,
            OnTimeout::Forfeit => v1::OnTimeout::Forfeit,
        };
        v1::TimeControl {
            clock: Some(clock),
            on_timeout: on_timeout as i32,
        }
    }
}

/// A protobuf duration of `ms` milliseconds.
pub fn duration(ms: u64) -> pbjson_types::Duration {
    pbjson_types::Duration {
        seconds: i64::try_from(ms / 1000).unwrap_or(i64::MAX),
        nanos: i32::try_from(ms % 1000 * 1_000_000).unwrap_or(0),
    }
}

/// Unix milliseconds, as the store keeps deadlines.
pub fn unix_ms(t: OffsetDateTime) -> i64 {
    i64::try_from(t.unix_timestamp_nanos() / 1_000_000).unwrap_or(i64::MAX)
}

/// The seats whose clocks run in this state (see the module comment).
pub fn clocked_seats(game: &Game) -> SeatSet {
    game.state().public_to_act().intersect(game.to_act())
}

/// Every seat's clock in one game.
#[derive(Debug, Clone)]
pub struct Clocks {
    pub control: TimeControl,
    /// Per seat: since when its clock runs; `None` while it does not.
    since: Vec<Option<OffsetDateTime>>,
    /// Per seat: the bank left, not counting the running move (bank and
    /// overage clocks).
    bank_ms: Vec<u64>,
    /// Seats whose holder is absent (disabled by an operator): their
    /// clocks run out as soon as they start.
    absent: SeatSet,
}

impl Clocks {
    pub fn new(control: TimeControl, players: u8) -> Self {
        let initial = control.limit.initial_bank();
        Self {
            control,
            since: vec![None; usize::from(players)],
            bank_ms: vec![initial; usize::from(players)],
            absent: SeatSet::EMPTY,
        }
    }

    /// From now on `seat` has no time: its clock runs out when it runs.
    pub fn set_absent(&mut self, seat: Seat) {
        self.absent.insert(seat);
    }

    /// After an event stored at `at`: `actor` is the seat that acted (if
    /// any), `running` the seats whose clocks run now. A clock that stops
    /// charges the bank for the time it ran beyond the free time of a move
    /// (all of it for a bank clock); the actor gets the increment.
    pub fn advance(&mut self, at: OffsetDateTime, actor: Option<Seat>, running: SeatSet) {
        let increment = self.control.limit.increment();
        let free = self.control.limit.free();
        for (i, since) in self.since.iter_mut().enumerate() {
            let seat = i as Seat;
            let acted = actor == Some(seat);
            if let Some(start) = *since
                && (acted || !running.contains(seat))
            {
                let used = u64::try_from((at - start).whole_milliseconds()).unwrap_or(0);
                let bank = &mut self.bank_ms[i];
                if !matches!(self.control.limit, Limit::PerMove { .. }) {
                    *bank = bank.saturating_sub(used.saturating_sub(free));
                }
                if acted {
                    *bank += increment;
                }
                *since = None;
            }
            if running.contains(seat) && since.is_none() {
                *since = Some(at);
            }
        }
    }

    /// When `seat`'s clock runs out, while it runs.
    pub fn deadline(&self, seat: Seat) -> Option<OffsetDateTime> {
        let since = (*self.since.get(usize::from(seat))?)?;
        if self.absent.contains(seat) {
            return Some(since);
        }
        let left = match self.control.limit {
            Limit::PerMove { ms } => ms,
            Limit::Bank { .. } | Limit::Overage { .. } => {
                self.control.limit.free() + self.bank_ms[usize::from(seat)]
            }
        };
        Some(since + Duration::from_millis(left))
    }

    /// The seat's bank, not counting the running move (bank and overage
    /// clocks only).
    pub fn time_left(&self, seat: Seat) -> Option<u64> {
        match self.control.limit {
            Limit::PerMove { .. } => None,
            Limit::Bank { .. } | Limit::Overage { .. } => {
                self.bank_ms.get(usize::from(seat)).copied()
            }
        }
    }

    /// The earliest deadline of any seat, with its seat.
    pub fn earliest(&self) -> Option<(OffsetDateTime, Seat)> {
        (0..self.since.len() as Seat)
            .filter_map(|s| self.deadline(s).map(|d| (d, s)))
            .min()
    }

    /// No deadline after an append starting at `now` can be earlier than
    /// this: a clock that starts then gets at least the limit (per move) or
    /// the free time plus the smallest bank or increment (bank, overage),
    /// none if an absent seat's; running clocks keep theirs.
    pub fn lower_bound(&self, now: OffsetDateTime) -> OffsetDateTime {
        let shortest = match self.control.limit {
            Limit::PerMove { ms } => ms,
            limit @ (Limit::Bank { .. } | Limit::Overage { .. }) => {
                let smallest = self.bank_ms.iter().copied().min().unwrap_or(0);
                limit.free() + smallest.min(limit.increment())
            }
        };
        let shortest = match self.absent.is_empty() {
            true => shortest,
            false => 0,
        };
        let fresh = now + Duration::from_millis(shortest);
        self.earliest().map_or(fresh, |(d, _)| d.min(fresh))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn per_move(ms: i64) -> v1::TimeControl {
        v1::TimeControl {
            clock: Some(v1::time_control::Clock::PerMove(pbjson_types::Duration {
                seconds: ms / 1000,
                nanos: (ms % 1000 * 1_000_000) as i32,
            })),
            on_timeout: 0,
        }
    }

    const DEFAULT_MIN_LIMIT: Duration = Duration::from_secs(1);

    #[test]
    fn limits_outside_the_range_name_the_field() {
        let err = TimeControl::from_request(&per_move(500), DEFAULT_MIN_LIMIT).expect_err("short");
        assert_eq!(
            err.to_string(),
            "time_control.per_move: must be between 1s and 24h"
        );
        let ok = TimeControl::from_request(&per_move(1500), DEFAULT_MIN_LIMIT).expect("ok");
        assert_eq!(ok.limit, Limit::PerMove { ms: 1500 });
        assert_eq!(ok.on_timeout, OnTimeout::BotMove);
    }

    #[test]
    fn a_bank_is_charged_for_the_time_used_and_credited_the_increment() {
        let control = TimeControl {
            limit: Limit::Bank {
                initial_ms: 10_000,
                increment_ms: 2_000,
            },
            on_timeout: OnTimeout::Lose,
        };
        let mut clocks = Clocks::new(control, 2);
        let t0 = OffsetDateTime::UNIX_EPOCH;
        clocks.advance(t0, None, SeatSet::from_iter([0]));
        assert_eq!(clocks.deadline(0), Some(t0 + Duration::from_secs(10)));
        assert_eq!(clocks.deadline(1), None);
        let t1 = t0 + Duration::from_secs(3);
        clocks.advance(t1, Some(0), SeatSet::from_iter([1]));
        assert_eq!(clocks.time_left(0), Some(9_000));
        assert_eq!(clocks.deadline(1), Some(t1 + Duration::from_secs(10)));
        assert_eq!(clocks.earliest(), Some((t1 + Duration::from_secs(10), 1)));
    }

    #[test]
    fn an_overage_bank_pays_only_for_the_time_beyond_the_move_limit() {
        let control = TimeControl {
            limit: Limit::Overage {
                per_move_ms: 1_000,
                bank_ms: 5_000,
                increment_ms: 0,
            },
            on_timeout: OnTimeout::Forfeit,
        };
        let mut clocks = Clocks::new(control, 2);
        let t0 = OffsetDateTime::UNIX_EPOCH;
        clocks.advance(t0, None, SeatSet::from_iter([0]));
        // The move limit plus the whole bank.
        assert_eq!(clocks.deadline(0), Some(t0 + Duration::from_secs(6)));
        // Within the limit: the bank is untouched.
        let t1 = t0 + Duration::from_millis(800);
        clocks.advance(t1, Some(0), SeatSet::from_iter([1]));
        assert_eq!(clocks.time_left(0), Some(5_000));
        // 2.5 s: 1.5 s over the limit comes from the bank.
        let t2 = t1 + Duration::from_millis(2_500);
        clocks.advance(t2, Some(1), SeatSet::from_iter([0]));
        assert_eq!(clocks.time_left(1), Some(3_500));
        assert_eq!(clocks.deadline(0), Some(t2 + Duration::from_secs(6)));
        // No deadline can come sooner than the limit plus the smallest bank.
        assert_eq!(clocks.lower_bound(t2), t2 + Duration::from_millis(1_000));
    }

    #[test]
    fn an_overage_control_names_its_missing_or_bad_fields() {
        let overage = |per_move: Option<i64>, bank: Option<i64>| v1::TimeControl {
            clock: Some(v1::time_control::Clock::Overage(
                v1::time_control::Overage {
                    per_move: per_move.map(|s| pbjson_types::Duration {
                        seconds: s,
                        nanos: 0,
                    }),
                    bank: bank.map(|s| pbjson_types::Duration {
                        seconds: s,
                        nanos: 0,
                    }),
                    increment: None,
                },
            )),
            on_timeout: v1::OnTimeout::Forfeit as i32,
        };
        let err = TimeControl::from_request(&overage(None, Some(10)), DEFAULT_MIN_LIMIT)
            .expect_err("no limit");
        assert_eq!(
            err.to_string(),
            "time_control.overage.per_move: is required"
        );
        let err = TimeControl::from_request(&overage(Some(2), Some(-1)), DEFAULT_MIN_LIMIT)
            .expect_err("negative bank");
        assert_eq!(
            err.to_string(),
            "time_control.overage.bank: must be between 0s and 24h"
        );
        let ok = TimeControl::from_request(&overage(Some(2), Some(0)), DEFAULT_MIN_LIMIT)
            .expect("a fixed limit with an empty bank");
        assert_eq!(ok.on_timeout, OnTimeout::Forfeit);
        assert_eq!(ok.message(), {
            let mut m = overage(Some(2), Some(0));
            if let Some(v1::time_control::Clock::Overage(o)) = m.clock.as_mut() {
                o.increment = Some(pbjson_types::Duration::default());
            }
            m
        });
    }

    #[test]
    fn an_absent_seat_runs_out_as_its_clock_starts() {
        let control = TimeControl {
            limit: Limit::PerMove { ms: 30_000 },
            on_timeout: OnTimeout::BotMove,
        };
        let mut clocks = Clocks::new(control, 2);
        let t0 = OffsetDateTime::UNIX_EPOCH;
        clocks.set_absent(1);
        clocks.advance(t0, None, SeatSet::from_iter([0]));
        assert_eq!(clocks.deadline(0), Some(t0 + Duration::from_secs(30)));
        assert_eq!(clocks.deadline(1), None, "no clock runs for it yet");
        let t1 = t0 + Duration::from_secs(2);
        clocks.advance(t1, Some(0), SeatSet::from_iter([1]));
        assert_eq!(clocks.earliest(), Some((t1, 1)));
        assert_eq!(clocks.lower_bound(t1), t1);
    }
}

//! How long each move of the watched game took to reach each watcher.

use hdrhistogram::Histogram;
use std::time::Instant;

use crate::watchers::Received;

/// One acknowledged move of the watched game.
pub struct Move {
    pub version: u64,
    /// When it was sent, so its commit is included.
    pub sent: Instant,
}

/// How a watcher follows the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Grpc,
    Sse,
    LongPoll,
}

/// Per (stream, move): from the move sent until the stream received a
/// view at its version or later.
pub struct Delivery {
    pub all: Histogram<u64>,
    pub grpc: Histogram<u64>,
    pub sse: Histogram<u64>,
    pub long_poll: Histogram<u64>,
    /// Streams that received every move.
    pub complete: usize,
}

impl Delivery {
    pub fn of(moves: &[Move], streams: &[(Kind, Received)]) -> Delivery {
        let histogram = || Histogram::new_with_bounds(1, 100_000_000, 3).expect("valid bounds");
        let mut d = Delivery {
            all: histogram(),
            grpc: histogram(),
            sse: histogram(),
            long_poll: histogram(),
            complete: 0,
        };
        for (kind, received) in streams {
            let mut got = 0;
            for m in moves {
                let Some(&(_, at)) = received.iter().find(|(v, _)| *v >= m.version) else {
                    continue;
                };
                got += 1;
                let us = u64::try_from(at.saturating_duration_since(m.sent).as_micros())
                    .unwrap_or(u64::MAX)
                    .max(1);
                d.all.saturating_record(us);
                match kind {
                    Kind::Grpc => d.grpc.saturating_record(us),
                    Kind::Sse => d.sse.saturating_record(us),
                    Kind::LongPoll => d.long_poll.saturating_record(us),
                }
            }
            if got == moves.len() {
                d.complete += 1;
            }
        }
        d
    }
}

pub fn quantiles(h: &Histogram<u64>) -> String {
    let ms = |q: f64| h.value_at_quantile(q) as f64 / 1000.0;
    format!(
        "p50 {:.1}  p90 {:.1}  p99 {:.1}  max {:.1}",
        ms(0.5),
        ms(0.9),
        ms(0.99),
        h.max() as f64 / 1000.0
    )
}

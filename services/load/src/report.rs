//! Latency histograms (hdrhistogram, microseconds) and the printed report.

use std::collections::BTreeMap;
use std::time::Duration;

use hdrhistogram::Histogram;

use crate::commits::Commits;
use crate::cpu::Use;
use crate::raw::Raw;

/// Moves per position bucket: "a move late in a game costs what an early
/// one costs" is read off these.
pub const BUCKET: usize = 32;

/// The latencies one worker (or, merged, the run) saw.
#[derive(Debug)]
pub struct Latencies {
    pub submit: Histogram<u64>,
    pub view: Histogram<u64>,
    /// SubmitMove latency by the move's position in its game, per bucket.
    pub by_position: Vec<Histogram<u64>>,
}

fn histogram() -> Histogram<u64> {
    // 1 µs to 100 s at 3 significant figures: valid bounds, so no error.
    Histogram::new_with_bounds(1, 100_000_000, 3).expect("valid histogram bounds")
}

impl Default for Latencies {
    fn default() -> Self {
        Self {
            submit: histogram(),
            view: histogram(),
            by_position: Vec::new(),
        }
    }
}

fn micros(d: Duration) -> u64 {
    u64::try_from(d.as_micros()).unwrap_or(u64::MAX).max(1)
}

impl Latencies {
    pub fn record_move(&mut self, position: usize, took: Duration) {
        let us = micros(took);
        self.submit.saturating_record(us);
        let bucket = position / BUCKET;
        while self.by_position.len() <= bucket {
            self.by_position.push(histogram());
        }
        self.by_position[bucket].saturating_record(us);
    }

    pub fn record_view(&mut self, took: Duration) {
        self.view.saturating_record(micros(took));
    }

    pub fn merge(&mut self, other: &Latencies) {
        let _ = self.submit.add(&other.submit);
        let _ = self.view.add(&other.view);
        for (i, h) in other.by_position.iter().enumerate() {
            while self.by_position.len() <= i {
                self.by_position.push(histogram());
            }
            let _ = self.by_position[i].add(h);
        }
    }
}

/// What the service run did.
#[derive(Debug)]
pub struct Totals {
    pub moves: u64,
    pub views: u64,
    pub games: u64,
    pub errors: u64,
    /// Errors by gRPC code.
    pub error_codes: BTreeMap<String, u64>,
    /// Calls the service shed with a retry hint, sent again after it.
    pub shed_unavailable: u64,
    pub shed_exhausted: u64,
    pub elapsed: Duration,
}

impl Totals {
    pub fn moves_per_second(&self) -> f64 {
        self.moves as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

fn ms(us: u64) -> f64 {
    us as f64 / 1000.0
}

/// What the run played, for the report's first line.
#[derive(Debug)]
pub struct Setup<'a> {
    pub games: usize,
    pub players: usize,
    pub preset: &'a str,
    /// Group commit of a service started here; `None` for one reached at
    /// `--url`, whose setting the tool does not know.
    pub group_commit: Option<bool>,
}

pub fn print_service(setup: &Setup, t: &Totals, l: &Latencies, cpu: &Use) {
    let secs = t.elapsed.as_secs_f64();
    println!(
        "service: {} concurrent games ({} players, {}), {:.1} s, group commit {}",
        setup.games,
        setup.players,
        setup.preset,
        secs,
        match setup.group_commit {
            Some(true) => "on",
            Some(false) => "off",
            None => "as configured",
        }
    );
    println!(
        "  moves: {} ({:.0}/s); games finished: {}; GetView: {} ({:.0}/s); errors: {}",
        t.moves,
        t.moves_per_second(),
        t.games,
        t.views,
        t.views as f64 / secs.max(1e-9),
        t.errors
    );
    if !t.error_codes.is_empty() {
        let codes: Vec<String> = t
            .error_codes
            .iter()
            .map(|(code, n)| format!("{code} {n}"))
            .collect();
        println!("  errors by code: {}", codes.join(", "));
    }
    println!(
        "  shed with a retry hint and sent again: UNAVAILABLE {}, RESOURCE_EXHAUSTED {}",
        t.shed_unavailable, t.shed_exhausted
    );
    let s = &l.submit;
    println!(
        "  SubmitMove latency ms: p50 {:.2}  p99 {:.2}  p99.9 {:.2}  max {:.2}",
        ms(s.value_at_quantile(0.5)),
        ms(s.value_at_quantile(0.99)),
        ms(s.value_at_quantile(0.999)),
        ms(s.max())
    );
    let v = &l.view;
    println!(
        "  GetView latency ms:    p50 {:.2}  p99 {:.2}  p99.9 {:.2}",
        ms(v.value_at_quantile(0.5)),
        ms(v.value_at_quantile(0.99)),
        ms(v.value_at_quantile(0.999))
    );
    println!("  SubmitMove p50 by move position (buckets of {BUCKET} moves):");
    let first = l.by_position.first().map(|h| h.value_at_quantile(0.5));
    for (i, h) in l
        .by_position
        .iter()
        .enumerate()
        .filter(|(_, h)| !h.is_empty())
    {
        let p50 = h.value_at_quantile(0.5);
        let change = first
            .filter(|&f| f > 0)
            .map(|f| (p50 as f64 / f as f64 - 1.0) * 100.0)
            .unwrap_or(0.0);
        println!(
            "    moves {:>4}-{:<4} n={:<7} p50 {:.2} ms ({:+.0}% vs first)",
            i * BUCKET,
            (i + 1) * BUCKET - 1,
            h.len(),
            ms(p50),
            change
        );
    }
    println!(
        "  CPU (share of one core; {} cores in all): tool {:.2}, service {:.2}{}",
        crate::target::cores(),
        cpu.tool,
        cpu.service,
        postgres(cpu)
    );
}

/// Group commit's figures, when the service shows them.
pub fn print_commits(commits: Option<Commits>) {
    match commits {
        Some(c) => println!(
            "  group commit (means): {:.0} commits, {:.1} appends each, gather {:.2} ms, write and commit {:.2} ms",
            c.commits, c.appends, c.gather_ms, c.commit_ms
        ),
        None => println!("  group commit: no commits seen in the service's /metrics"),
    }
}

pub fn print_raw(t: &Totals, raw: &Raw, games: usize) {
    let connections = if raw.connections < games {
        format!(
            " on {} connections (the database server takes no more)",
            raw.connections
        )
    } else {
        String::new()
    };
    println!(
        "raw limit: {} single-row durable INSERT transactions in {:.1} s{}: {:.0} rows/s (errors: {})",
        raw.rows,
        raw.elapsed.as_secs_f64(),
        connections,
        raw.rows_per_second(),
        raw.errors
    );
    println!(
        "  CPU (share of one core): tool {:.2}{}",
        raw.cpu.tool,
        postgres(&raw.cpu)
    );
    println!(
        "ratio: service moves/s / raw rows/s = {:.0} / {:.0} = {:.2}",
        t.moves_per_second(),
        raw.rows_per_second(),
        t.moves_per_second() / raw.rows_per_second().max(1e-9)
    );
}

/// ", postgres 0.45", or nothing when no Postgres was measured.
fn postgres(cpu: &Use) -> String {
    cpu.postgres
        .map(|p| format!(", postgres {p:.2}"))
        .unwrap_or_default()
}

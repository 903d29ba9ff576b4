//! `skit arena`: seeded games between bot strategies, seats rotated so each
//! strategy sits at each seat equally often; reports how often each was the
//! loser, with a 95% Wilson score interval. Games are spread over threads,
//! but every game's deck, chance outcomes and bot randomness come from its
//! own seed, so the totals do not depend on the thread count.

use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use rand::seq::{IndexedRandom, SliceRandom};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use skit_bots::{Budget, Search, Strategy, by_name};
use skit_engine::{Action, Card, Game, Move, Phase, Preset, Ruleset, Seat};

#[derive(clap::Args, Clone)]
pub struct Args {
    #[arg(long, default_value = "skitgubbe")]
    preset: String,
    #[arg(long, default_value_t = 3)]
    players: u8,
    #[arg(long, default_value_t = 300)]
    games: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Comma-separated strategy names; seat s of game g plays name (s + g) mod k.
    #[arg(long, default_value = "random,greedy,search", value_delimiter = ',')]
    strategies: Vec<String>,
    /// Search: playouts per decision.
    #[arg(long, default_value_t = Budget::default().playouts)]
    playouts: usize,
    /// Search: sampled states per decision.
    #[arg(long, default_value_t = Budget::default().determinizations)]
    determinizations: usize,
    /// Search: optional time limit per decision in milliseconds.
    #[arg(long)]
    time_ms: Option<u64>,
    /// Worker threads (default: one per core).
    #[arg(long)]
    threads: Option<usize>,
}

/// How one seat of one game ended.
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    games: u64,
    lost: u64,
    drawn: u64,
}

impl Args {
    fn bot(&self, name: &str) -> anyhow::Result<Box<dyn Strategy>> {
        if name == "search" {
            return Ok(Box::new(Search::new(Budget {
                playouts: self.playouts,
                determinizations: self.determinizations,
                time: self.time_ms.map(Duration::from_millis),
                ..Budget::default()
            })));
        }
        by_name(name)
            .with_context(|| format!("unknown strategy {name:?} (known: {:?})", skit_bots::NAMES))
    }
}

/// Plays game `g`; returns (strategy index, lost, drawn) per seat.
fn play_game(args: &Args, rules: Ruleset, g: usize) -> anyhow::Result<Vec<(usize, bool, bool)>> {
    let n = args.players;
    let k = args.strategies.len();
    let mut rng =
        ChaCha8Rng::seed_from_u64(args.seed.wrapping_mul(0x9E37_79B9).wrapping_add(g as u64));
    let mut deck: Vec<Card> = Card::all().collect();
    deck.shuffle(&mut rng);
    let dealer = (g % usize::from(n)) as Seat;
    let mut game = Game::deal(rules, n, dealer, &deck)?;
    let index: Vec<usize> = (0..usize::from(n)).map(|s| (s + g) % k).collect();
    let mut bots = index
        .iter()
        .map(|&i| args.bot(&args.strategies[i]))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let mut bot_rngs: Vec<ChaCha8Rng> = (0..n)
        .map(|_| ChaCha8Rng::seed_from_u64(rng.random()))
        .collect();
    while game.state().phase() != Phase::Over {
        let awaited = game.state().awaited_cards();
        if !awaited.is_empty() {
            let mut order: Vec<Card> = awaited.iter().collect();
            order.shuffle(&mut rng);
            game.apply(&Action::Shuffle(order))?;
            continue;
        }
        let seats: Vec<Seat> = game.to_act().iter().collect();
        let seat = *seats.choose(&mut rng).context("no seat may act")?;
        let view = game.view(Some(seat));
        let kind = bots[usize::from(seat)]
            .choose(&view, &mut bot_rngs[usize::from(seat)])
            .context("a strategy made no choice")?;
        game.apply(&Move::new(seat, kind).into()).with_context(|| {
            format!(
                "{} chose an illegal action",
                args.strategies[index[usize::from(seat)]]
            )
        })?;
    }
    let state = game.state();
    Ok((0..n)
        .map(|s| {
            (
                index[usize::from(s)],
                state.loser() == Some(s),
                state.drawn(),
            )
        })
        .collect())
}

/// The 95% Wilson score interval of `x` successes in `n` trials.
fn wilson(x: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let (n, p, z) = (n as f64, x as f64 / n as f64, 1.96f64);
    let d = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / d;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / d;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

fn arena(args: &Args) -> anyhow::Result<()> {
    let preset = Preset::from_name(&args.preset)
        .with_context(|| format!("unknown preset {:?}", args.preset))?;
    let rules = Ruleset::preset(preset);
    rules.check_players(args.players)?;
    if args.strategies.is_empty() {
        bail!("no strategies given");
    }
    for name in &args.strategies {
        args.bot(name)?;
    }
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let next = AtomicUsize::new(0);
    let start = Instant::now();
    let results = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut tallies = vec![Tally::default(); args.strategies.len()];
                    loop {
                        let g = next.fetch_add(1, Ordering::Relaxed);
                        if g >= args.games {
                            return Ok(tallies);
                        }
                        for (i, lost, drawn) in play_game(args, rules, g)? {
                            tallies[i].games += 1;
                            tallies[i].lost += u64::from(lost);
                            tallies[i].drawn += u64::from(drawn);
                        }
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| {
                w.join()
                    .unwrap_or_else(|_| Err(anyhow::anyhow!("a worker panicked")))
            })
            .collect::<anyhow::Result<Vec<Vec<Tally>>>>()
    })?;
    let secs = start.elapsed().as_secs_f64();
    // A name listed twice (to seat it more often) is one strategy.
    let mut names: Vec<&String> = Vec::new();
    let mut totals: Vec<Tally> = Vec::new();
    for tallies in results {
        for (name, r) in args.strategies.iter().zip(tallies) {
            let i = match names.iter().position(|n| *n == name) {
                Some(i) => i,
                None => {
                    names.push(name);
                    totals.push(Tally::default());
                    totals.len() - 1
                }
            };
            totals[i].games += r.games;
            totals[i].lost += r.lost;
            totals[i].drawn += r.drawn;
        }
    }
    println!(
        "{} with {} players: {} games, seed {}, seats from [{}], search {} playouts x {} determinizations, {threads} threads",
        preset.name(),
        args.players,
        args.games,
        args.seed,
        args.strategies.join(","),
        args.playouts,
        args.determinizations
    );
    println!(
        "{:<10} {:>6} {:>6} {:>8}   {:<17} {:>6}",
        "strategy", "games", "lost", "rate", "95% CI", "draws"
    );
    for (name, t) in names.iter().zip(&totals) {
        let (lo, hi) = wilson(t.lost, t.games);
        let rate = if t.games == 0 {
            0.0
        } else {
            t.lost as f64 / t.games as f64
        };
        println!(
            "{name:<10} {:>6} {:>6} {rate:>8.3}   [{lo:.3}, {hi:.3}]    {:>6}",
            t.games, t.lost, t.drawn
        );
    }
    println!("{:.1} s, {:.2} games/s", secs, args.games as f64 / secs);
    Ok(())
}

pub fn run(args: &Args) -> ExitCode {
    match arena(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("arena: {e:#}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: Args,
    }

    #[test]
    fn games_have_one_loser_or_a_draw_and_rotate_seats() {
        let cli = Cli::parse_from([
            "arena",
            "--strategies",
            "random,greedy,search",
            "--playouts",
            "4",
        ]);
        let rules = Ruleset::preset(Preset::Skitgubbe);
        for g in 0..3 {
            let seats = play_game(&cli.args, rules, g).expect("a game");
            let losers = seats.iter().filter(|s| s.1).count();
            assert!(losers == 1 || seats.iter().all(|s| s.2 && !s.1));
            let order: Vec<usize> = seats.iter().map(|s| s.0).collect();
            assert_eq!(order, [g % 3, (g + 1) % 3, (g + 2) % 3]);
        }
    }

    #[test]
    fn wilson_interval_matches_known_values() {
        let (lo, hi) = wilson(50, 100);
        assert!((lo - 0.4038).abs() < 1e-3 && (hi - 0.5962).abs() < 1e-3);
        assert_eq!(wilson(0, 0), (0.0, 1.0));
        let (lo, _) = wilson(0, 10);
        assert_eq!(lo, 0.0);
    }
}

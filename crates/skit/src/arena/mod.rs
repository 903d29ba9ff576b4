//! `skit arena`: seeded games between bots.
//!
//! - Plain (the default): game g seats name `(s + g) mod k` at seat s, each
//!   game on its own seed; loss rates with 95% Wilson intervals.
//! - `--duplicate`: every deal is played once per rotation of the names
//!   (one per seat), from one seed per deal derived from `--seed` and
//!   printed, so bots are compared on the same cards ([`duplicate`]).
//! - `arena strength`: duplicate deals between the reference levels on
//!   every preset ([`strength`]).
//!
//! Games are spread over threads, but every game's randomness comes from
//! its own seed, so the figures do not depend on the thread count.

mod budget;
mod duplicate;
mod player;
mod pool;
mod stats;
mod strength;
mod table;

use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, bail};
use rand::RngCore;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use skit_engine::{Card, CardSet, Preset, Ruleset, Seat};

use budget::BudgetArgs;
use player::Player;
use stats::{DealTally, wilson};
use table::{Chance, Outcome};

#[derive(clap::Args, Clone)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Args {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    play: PlayArgs,
}

#[derive(clap::Subcommand, Clone)]
enum Command {
    /// Duplicate deals between the reference levels on every preset: each
    /// level's loss rate with its 95% interval, and against the omniscient
    /// bot's.
    Strength(strength::Args),
}

#[derive(clap::Args, Clone)]
pub struct PlayArgs {
    #[arg(long, default_value = "skitgubbe")]
    preset: String,
    #[arg(long, default_value_t = 3)]
    players: u8,
    /// Plain mode: games to play.
    #[arg(long, default_value_t = 300)]
    games: usize,
    /// Duplicate mode: deals to play, each once per rotation.
    #[arg(long, default_value_t = 100)]
    deals: usize,
    /// Play duplicate deals: --strategies names one bot per seat.
    #[arg(long)]
    duplicate: bool,
    /// The master seed (duplicate: each deal's seed is derived from it).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Comma-separated bots (random, greedy, search, ismcts, omniscient).
    /// Plain: seat s of game g plays name (s + g) mod k.
    #[arg(long, default_value = "random,greedy,search", value_delimiter = ',')]
    strategies: Vec<String>,
    #[command(flatten)]
    budget: BudgetArgs,
}

/// Plain mode: plays game `g`; returns (strategy index, outcome) per seat.
fn play_game(args: &PlayArgs, rules: Ruleset, g: usize) -> anyhow::Result<(Vec<usize>, Outcome)> {
    let n = usize::from(args.players);
    let k = args.strategies.len();
    let mut rng =
        ChaCha8Rng::seed_from_u64(args.seed.wrapping_mul(0x9E37_79B9).wrapping_add(g as u64));
    let mut deck: Vec<Card> = Card::all().collect();
    deck.shuffle(&mut rng);
    let dealer = (g % n) as Seat;
    let index: Vec<usize> = (0..n).map(|s| (s + g) % k).collect();
    let mut players = index
        .iter()
        .map(|&i| Player::new(&args.strategies[i], args.budget.budget()))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let mut bots: Vec<Box<dyn RngCore>> = (0..n)
        .map(|_| Box::new(ChaCha8Rng::seed_from_u64(rng.random())) as Box<dyn RngCore>)
        .collect();
    let mut chance = ChaCha8Rng::seed_from_u64(rng.random());
    let outcome = table::play(
        rules,
        &deck,
        dealer,
        &mut players,
        Chance {
            shuffle: &mut |_: u64, awaited: CardSet| {
                let mut order: Vec<Card> = awaited.iter().collect();
                order.shuffle(&mut chance);
                order
            },
            order: &mut rng,
            bots: &mut bots,
        },
    )?;
    Ok((index, outcome))
}

/// Names listed twice are one bot: the distinct names, and each seat
/// name's index among them.
fn distinct(names: &[String]) -> (Vec<&str>, Vec<usize>) {
    let mut unique: Vec<&str> = Vec::new();
    let index = names
        .iter()
        .map(
            |name| match unique.iter().position(|u| *u == name.as_str()) {
                Some(i) => i,
                None => {
                    unique.push(name.as_str());
                    unique.len() - 1
                }
            },
        )
        .collect();
    (unique, index)
}

fn rules_of(args: &PlayArgs) -> anyhow::Result<(Preset, Ruleset)> {
    let preset = Preset::from_name(&args.preset)
        .with_context(|| format!("unknown preset {:?}", args.preset))?;
    let rules = Ruleset::preset(preset);
    rules.check_players(args.players)?;
    if args.strategies.is_empty() {
        bail!("no strategies given");
    }
    for name in &args.strategies {
        Player::new(name, args.budget.budget())?;
    }
    Ok((preset, rules))
}

fn plain(args: &PlayArgs) -> anyhow::Result<()> {
    let (preset, rules) = rules_of(args)?;
    let threads = pool::threads(args.budget.threads);
    let start = Instant::now();
    let games = pool::map(args.games, threads, |g| play_game(args, rules, g))?;
    let secs = start.elapsed().as_secs_f64();
    let (names, of) = distinct(&args.strategies);
    let mut totals = vec![(0u64, 0u64, 0u64); names.len()];
    for (index, outcome) in &games {
        for (seat, &i) in index.iter().enumerate() {
            let t = &mut totals[of[i]];
            t.0 += 1;
            t.1 += u64::from(outcome.loser == Some(seat as Seat));
            t.2 += u64::from(outcome.drawn);
        }
    }
    println!(
        "{} with {} players: {} games, seed {}, seats from [{}], {}, {threads} threads",
        preset.name(),
        args.players,
        args.games,
        args.seed,
        args.strategies.join(","),
        args.budget.describe()
    );
    println!(
        "{:<10} {:>6} {:>6} {:>8}   {:<17} {:>6}",
        "strategy", "games", "lost", "rate", "95% CI (Wilson)", "draws"
    );
    for (name, &(games, lost, drawn)) in names.iter().zip(&totals) {
        let (lo, hi) = wilson(lost, games);
        let rate = lost as f64 / games.max(1) as f64;
        println!("{name:<10} {games:>6} {lost:>6} {rate:>8.3}   [{lo:.3}, {hi:.3}]    {drawn:>6}");
    }
    println!("{:.1} s, {:.2} games/s", secs, args.games as f64 / secs);
    Ok(())
}

fn duplicate(args: &PlayArgs) -> anyhow::Result<()> {
    let (preset, rules) = rules_of(args)?;
    let k = args.strategies.len();
    if k != usize::from(args.players) {
        bail!(
            "--duplicate seats one bot per seat: --strategies names {k}, --players is {}",
            args.players
        );
    }
    let threads = pool::threads(args.budget.threads);
    let budget = args.budget.budget();
    let start = Instant::now();
    let deals = pool::map(args.deals, threads, |d| {
        duplicate::play(rules, &args.strategies, budget, args.seed, d as u64)
    })?;
    let secs = start.elapsed().as_secs_f64();
    let (names, of) = distinct(&args.strategies);
    println!(
        "{} with {} players: {} duplicate deals x {k} rotations, master seed {}, seats [{}], {}, {threads} threads",
        preset.name(),
        args.players,
        args.deals,
        args.seed,
        args.strategies.join(","),
        args.budget.describe()
    );
    println!(
        "deal d's seed = sha256(\"{}\" || {} || d, as u64 big-endian); deck, dealer and shuffles by {}",
        duplicate::DEAL_TAG,
        args.seed,
        skit_fairness::ALGORITHM
    );
    let mut tallies = vec![vec![DealTally::default(); deals.len()]; names.len()];
    let mut draws = vec![0u64; names.len()];
    for (d, deal) in deals.iter().enumerate() {
        let mut losers = Vec::new();
        for game in &deal.games {
            for (seat, &i) in game.seats.iter().enumerate() {
                let t = &mut tallies[of[i]][d];
                t.games += 1;
                t.lost += u32::from(game.outcome.loser == Some(seat as Seat));
                draws[of[i]] += u64::from(game.outcome.drawn);
            }
            losers.push(match game.outcome.loser {
                Some(s) => format!("{}@{s}", args.strategies[game.seats[usize::from(s)]]),
                None => "draw".into(),
            });
        }
        println!(
            "deal {d:>4} seed {} dealer {}: lost {}",
            deal.seed.to_hex(),
            deal.dealer,
            losers.join(", ")
        );
    }
    println!(
        "{:<10} {:>6} {:>6} {:>8}   {:<17} {:>6}",
        "strategy", "games", "lost", "rate", "95% CI (bootstrap over deals)", "draws"
    );
    for (i, name) in names.iter().enumerate() {
        let t = &tallies[i];
        let (lo, hi) = stats::rate_interval(t);
        let games: u64 = t.iter().map(|d| u64::from(d.games)).sum();
        let lost: u64 = t.iter().map(|d| u64::from(d.lost)).sum();
        println!(
            "{name:<10} {games:>6} {lost:>6} {:>8.3}   [{lo:.3}, {hi:.3}]    {:>6}",
            stats::rate(t),
            draws[i]
        );
    }
    println!("{secs:.1} s");
    Ok(())
}

pub fn run(args: &Args) -> ExitCode {
    let result = match &args.command {
        Some(Command::Strength(strength)) => strength::run(strength),
        None if args.play.duplicate => duplicate(&args.play),
        None => plain(&args.play),
    };
    match result {
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
            "--decision-ms",
            "0",
        ]);
        let rules = Ruleset::preset(Preset::Skitgubbe);
        for g in 0..3 {
            let (order, outcome) = play_game(&cli.args.play, rules, g).expect("a game");
            assert!(outcome.loser.is_some() != outcome.drawn);
            assert_eq!(order, [g % 3, (g + 1) % 3, (g + 2) % 3]);
        }
    }

    #[test]
    fn duplicate_mode_needs_one_name_per_seat() {
        let cli = Cli::parse_from(["arena", "--duplicate", "--strategies", "random,greedy"]);
        let err = duplicate(&cli.args.play).expect_err("two names, three seats");
        assert!(err.to_string().contains("one bot per seat"), "{err}");
    }

    #[test]
    fn unknown_bots_are_named() {
        let cli = Cli::parse_from(["arena", "--strategies", "random,oracle,greedy"]);
        let err = plain(&cli.args.play).expect_err("no oracle");
        assert!(err.to_string().contains("\"oracle\""), "{err}");
        assert!(err.to_string().contains("omniscient"), "{err}");
    }
}

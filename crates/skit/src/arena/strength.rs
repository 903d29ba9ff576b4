//! `skit arena strength`: the reference levels measured on every preset.
//! Each level sits at a table with `players - 1` copies of the field bot
//! (`search` by default) for the same duplicate deals, in every seat, and its
//! loss rate is reported with a 95% percentile bootstrap interval over
//! deals (a deal's rotations are paired, so whole deals are resampled).
//! Every level's rate is also given over the omniscient bot's on the same
//! deals (a paired bootstrap of the ratio): the gap inference over hidden
//! cards could still close.

use std::time::Instant;

use anyhow::{Context, bail};
use skit_bots::Omniscient;
use skit_engine::{Preset, Ruleset};

use super::budget::BudgetArgs;
use super::player::Player;
use super::stats::{self, DealTally};
use super::{duplicate, pool};

#[derive(clap::Args, Clone, Debug)]
pub struct Args {
    /// Comma-separated presets, or `all`; each at its usual player count.
    #[arg(long, default_value = "all", value_delimiter = ',')]
    presets: Vec<String>,
    /// Duplicate deals per preset and level.
    #[arg(long, default_value_t = 40)]
    deals: u64,
    /// The master seed of the deals.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The levels measured, in the order printed.
    #[arg(
        long,
        default_value = "random,greedy,search,ismcts,omniscient",
        value_delimiter = ','
    )]
    levels: Vec<String>,
    /// The bot in every other seat.
    #[arg(long, default_value = "search")]
    field: String,
    #[command(flatten)]
    budget: BudgetArgs,
}

fn presets(names: &[String]) -> anyhow::Result<Vec<Preset>> {
    if names.iter().any(|n| n == "all") {
        return Ok(Preset::ALL.to_vec());
    }
    names
        .iter()
        .map(|n| Preset::from_name(n).with_context(|| format!("unknown preset {n:?}")))
        .collect()
}

/// One level's tallies per deal on one preset: the level sits at index 0
/// of the names, the field elsewhere.
fn measure(
    args: &Args,
    rules: Ruleset,
    players: u8,
    level: &str,
    threads: usize,
) -> anyhow::Result<Vec<DealTally>> {
    let mut names = vec![level.to_string()];
    names.extend((1..players).map(|_| args.field.clone()));
    let budget = args.budget.budget();
    pool::map(args.deals as usize, threads, |d| {
        let deal = duplicate::play(rules, &names, budget, args.seed, d as u64)?;
        let mut tally = DealTally::default();
        for game in &deal.games {
            let seat = game
                .seats
                .iter()
                .position(|&i| i == 0)
                .context("level seated")?;
            tally.games += 1;
            tally.lost += u32::from(game.outcome.loser == Some(seat as u8));
            let us = game.outcome.slowest[seat]
                .as_micros()
                .min(u128::from(u32::MAX)) as u32;
            tally.slowest_us = tally.slowest_us.max(us);
        }
        Ok(tally)
    })
}

pub fn run(args: &Args) -> anyhow::Result<()> {
    let presets = presets(&args.presets)?;
    if args.levels.is_empty() || args.deals == 0 {
        bail!("strength needs at least one level and one deal");
    }
    for name in args.levels.iter().chain([&args.field]) {
        Player::new(name, args.budget.budget())?;
    }
    let threads = pool::threads(args.budget.threads);
    let start = Instant::now();
    println!(
        "strength: {} duplicate deals per preset and level, master seed {}, each level against {} in the other seats, {}, {threads} threads",
        args.deals,
        args.seed,
        args.field,
        args.budget.describe()
    );
    println!(
        "rate: share of the level's games it lost; 95% CI: percentile bootstrap over deals ({} resamples, a deal's rotations kept together); max ms: the level's slowest decision in CPU time; / omniscient: rate over the omniscient level's on the same deals, paired bootstrap",
        stats::RESAMPLES
    );
    for preset in presets {
        let rules = Ruleset::preset(preset);
        let players = rules.usual_players();
        let mut rows = Vec::new();
        for level in &args.levels {
            rows.push((level, measure(args, rules, players, level, threads)?));
        }
        let ceiling = rows
            .iter()
            .find(|(l, _)| l.as_str() == Omniscient::NAME)
            .map(|(_, t)| t.clone());
        println!();
        println!(
            "{} ({players} players, {} games per level)",
            preset.name(),
            args.deals * u64::from(players)
        );
        println!(
            "{:<11} {:>6} {:>6} {:>7}  {:<16} {:>8}  {:<24}",
            "level", "games", "lost", "rate", "95% CI", "max ms", "/ omniscient [95% CI]"
        );
        for (level, tallies) in &rows {
            let games: u32 = tallies.iter().map(|t| t.games).sum();
            let lost: u32 = tallies.iter().map(|t| t.lost).sum();
            let (lo, hi) = stats::rate_interval(tallies);
            let relative = match (&ceiling, level.as_str()) {
                (_, name) if name == Omniscient::NAME => "(ceiling)".to_string(),
                (None, _) => "-".to_string(),
                (Some(c), _) => match stats::ratio(tallies, c) {
                    None => "- (omniscient never lost)".to_string(),
                    Some((r, Some((a, b)))) => format!("{r:.2} [{a:.2}, {b:.2}]"),
                    Some((r, None)) => format!("{r:.2} [too few losses]"),
                },
            };
            let slowest = tallies.iter().map(|t| t.slowest_us).max().unwrap_or(0);
            println!(
                "{level:<11} {games:>6} {lost:>6} {:>7.3}  [{lo:.3}, {hi:.3}] {:>8.1}  {relative}",
                stats::rate(tallies),
                f64::from(slowest) / 1000.0
            );
        }
    }
    println!();
    println!("{:.1} s", start.elapsed().as_secs_f64());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_presets_and_levels_are_named() {
        assert!(presets(&["all".into()]).expect("all").len() == Preset::ALL.len());
        let err = presets(&["skitgubbe".into(), "poker".into()]).expect_err("no poker");
        assert!(err.to_string().contains("\"poker\""), "{err}");
    }
}

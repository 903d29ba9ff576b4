//! Intervals for loss rates. Games of one duplicate deal are paired (the
//! same cards in every rotation), so the arena's intervals resample whole
//! deals (a percentile bootstrap); the Wilson interval treats games as
//! independent and serves the plain rotation mode.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Resamples per bootstrap interval.
pub const RESAMPLES: usize = 2000;

/// The 95% Wilson score interval of `x` successes in `n` trials.
pub fn wilson(x: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let (n, p, z) = (n as f64, x as f64 / n as f64, 1.96f64);
    let d = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / d;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / d;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Per deal, losses and games of one bot.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DealTally {
    pub lost: u32,
    pub games: u32,
    /// The most CPU time one decision took, in microseconds.
    pub slowest_us: u32,
}

/// The loss rate over `deals`.
pub fn rate(deals: &[DealTally]) -> f64 {
    let (lost, games) = deals.iter().fold((0u64, 0u64), |(l, g), d| {
        (l + u64::from(d.lost), g + u64::from(d.games))
    });
    if games == 0 {
        0.0
    } else {
        lost as f64 / games as f64
    }
}

/// The 2.5% and 97.5% points of `stat` over resamples of the deal indices
/// `0..n` drawn with replacement (seeded: the same figures every run).
fn percentiles(n: usize, mut stat: impl FnMut(&[usize]) -> Option<f64>) -> Option<(f64, f64)> {
    if n == 0 {
        return None;
    }
    let mut rng = ChaCha8Rng::seed_from_u64(0x5EED);
    let mut picks = vec![0; n];
    let mut values: Vec<f64> = Vec::with_capacity(RESAMPLES);
    for _ in 0..RESAMPLES {
        for p in &mut picks {
            *p = rng.random_range(0..n);
        }
        if let Some(v) = stat(&picks) {
            values.push(v);
        }
    }
    if values.is_empty() {
        return None;
    }
    values.sort_by(f64::total_cmp);
    let at = |q: f64| values[((values.len() - 1) as f64 * q).round() as usize];
    Some((at(0.025), at(0.975)))
}

fn pick(deals: &[DealTally], picks: &[usize]) -> Vec<DealTally> {
    picks.iter().map(|&i| deals[i]).collect()
}

/// 95% bootstrap interval of the loss rate, resampling deals.
pub fn rate_interval(deals: &[DealTally]) -> (f64, f64) {
    percentiles(deals.len(), |picks| Some(rate(&pick(deals, picks)))).unwrap_or((0.0, 1.0))
}

/// `a`'s loss rate over `b`'s on the same deals (`None` if `b` never lost),
/// with its 95% paired bootstrap interval (`None` when too few resamples
/// have a loss by `b`).
pub fn ratio(a: &[DealTally], b: &[DealTally]) -> Option<(f64, Option<(f64, f64)>)> {
    let of = |a: &[DealTally], b: &[DealTally]| {
        let rb = rate(b);
        (rb > 0.0).then(|| rate(a) / rb)
    };
    let point = of(a, b)?;
    let mut missing = 0;
    let interval = percentiles(a.len().min(b.len()), |picks| {
        let r = of(&pick(a, picks), &pick(b, picks));
        missing += usize::from(r.is_none());
        r
    });
    Some((point, interval.filter(|_| missing * 20 < RESAMPLES)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_interval_matches_known_values() {
        let (lo, hi) = wilson(50, 100);
        assert!((lo - 0.4038).abs() < 1e-3 && (hi - 0.5962).abs() < 1e-3);
        assert_eq!(wilson(0, 0), (0.0, 1.0));
        let (lo, _) = wilson(0, 10);
        assert_eq!(lo, 0.0);
    }

    #[test]
    fn bootstrap_intervals_cover_the_rate_and_narrow_with_more_deals() {
        let tally = |lost| DealTally {
            lost,
            games: 3,
            ..DealTally::default()
        };
        let few: Vec<DealTally> = (0..20).map(|d| tally(d % 3)).collect();
        let many: Vec<DealTally> = (0..400).map(|d| tally(d % 3)).collect();
        let (lo, hi) = rate_interval(&few);
        assert!(lo < rate(&few) && rate(&few) < hi, "{lo} {hi}");
        let (lo2, hi2) = rate_interval(&many);
        assert!(hi2 - lo2 < hi - lo);
        // Every deal alike: no spread at all.
        assert_eq!(rate_interval(&[tally(1); 10]), (1.0 / 3.0, 1.0 / 3.0));
    }

    #[test]
    fn the_ratio_is_paired_and_undefined_without_losses_below() {
        let a: Vec<DealTally> = (0..50)
            .map(|d| DealTally {
                lost: d % 2,
                games: 1,
                ..DealTally::default()
            })
            .collect();
        let (point, interval) = ratio(&a, &a).expect("b lost");
        assert_eq!(point, 1.0);
        // Paired: the same deals in every resample, so no spread.
        assert_eq!(interval, Some((1.0, 1.0)));
        let none = [DealTally {
            games: 3,
            ..DealTally::default()
        }; 5];
        assert!(ratio(&a[..5], &none).is_none());
    }
}

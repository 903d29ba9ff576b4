//! Placement points that compare across table sizes: at a table of `n`
//! seats, place `p` (1 = first) scores 2 (n - p) / (n - 1). First place
//! always scores 2 and last place 0, so a 3-seat table and a 5-seat table
//! give the same total per player on average (1). Players tied on a place
//! share the points of the places they cover; the skitgubbe scores 0.
//! Points are exact fractions, never floats: sums, averages and tiebreaks
//! compare without rounding.

use num_rational::Ratio;

/// An exact number of points.
pub type Points = Ratio<i64>;

/// The points of `tied` players sharing place `place` (1-based) at a table
/// of `seats` seats: the mean of 2 (n - q) / (n - 1) for q in `place ..
/// place + tied`, which is (2n - 2p - t + 1) / (n - 1).
///
/// ```
/// use skit_league::{Points, placement_points};
/// assert_eq!(placement_points(3, 1, 1), Points::from_integer(2));
/// assert_eq!(placement_points(3, 2, 1), Points::from_integer(1));
/// assert_eq!(placement_points(4, 1, 2), Points::new(5, 3)); // 2 and 4/3 shared
/// assert_eq!(placement_points(5, 5, 1), Points::from_integer(0));
/// ```
pub fn placement_points(seats: usize, place: usize, tied: usize) -> Points {
    let (n, p, t) = (seats as i64, place as i64, tied as i64);
    Points::new(2 * n - 2 * p - t + 1, n - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_places_split_the_sum_of_the_places_they_cover() {
        for n in 2..=6 {
            for p in 1..=n {
                for t in 1..=(n + 1 - p) {
                    let covered: Points = (p..p + t).map(|q| placement_points(n, q, 1)).sum();
                    assert_eq!(placement_points(n, p, t) * Points::from(t as i64), covered);
                }
            }
        }
    }
}

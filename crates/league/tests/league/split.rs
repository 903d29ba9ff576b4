//! Table splitting against every combination of table counts.

use proptest::prelude::*;
use skit_league::{SplitError, table_sizes};

/// Whether some a tables of k and b of k - 1 (never 1-seat tables) seat
/// exactly n, by trying them all.
fn some_split(n: usize, k: usize) -> bool {
    (0..=n).any(|a| (0..=n).any(|b| a * k + b * (k - 1) == n && (b == 0 || k > 2) && a + b > 0))
}

proptest! {
    #[test]
    fn sizes_seat_everyone_at_k_or_k_minus_1_exactly_when_possible(n in 0usize..80, k in 2usize..=6) {
        match table_sizes(n, k) {
            Ok(sizes) => {
                prop_assert_eq!(sizes.iter().sum::<usize>(), n);
                prop_assert!(sizes.iter().all(|&s| s == k || (s == k - 1 && k > 2)));
                prop_assert!(sizes.windows(2).all(|w| w[0] >= w[1]), "full tables first");
                // As few tables as possible.
                prop_assert_eq!(sizes.len(), n.div_ceil(k));
            }
            Err(error) => {
                prop_assert!(!some_split(n, k), "{n} at {k}: {error}");
                if let SplitError::Impossible { below, above, .. } = error {
                    prop_assert!(some_split(below, k) && some_split(above, k));
                    prop_assert!((below + 1..above).all(|m| !some_split(m, k)));
                }
            }
        }
    }
}

#[test]
fn too_few_players_and_impossible_fields_say_what_would_work() {
    assert_eq!(
        table_sizes(2, 4),
        Err(SplitError::TooFew {
            players: 2,
            seats: 4,
            min: 3
        })
    );
    assert_eq!(
        table_sizes(7, 6),
        Err(SplitError::Impossible {
            players: 7,
            seats: 6,
            short: 5,
            below: 6,
            above: 10
        })
    );
    let odd = table_sizes(5, 2).expect_err("5 at 2 seats").to_string();
    assert!(odd.contains("4 or 6"), "{odd}");
    assert!(odd.contains("at tables of 2 seats"), "{odd}");
    let one = table_sizes(1, 2).expect_err("1 at 2 seats").to_string();
    assert!(one.contains("one table of 2 seats"), "{one}");
    let seven = table_sizes(7, 5).expect_err("7 at 5 seats").to_string();
    assert!(seven.contains("tables of 5 or 4 seats"), "{seven}");
    assert_eq!(table_sizes(10, 7), Err(SplitError::Seats(7)));
    assert_eq!(table_sizes(11, 4), Ok(vec![4, 4, 3]));
    assert_eq!(table_sizes(12, 5), Ok(vec![4, 4, 4]));
}

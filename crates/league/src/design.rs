//! Known schedules where every pair meets exactly once: the circle method
//! for 2-seat tables (n even, n - 1 rounds) and the affine plane of order
//! q for q x q players at q-seat tables (q = 2, 3, 4, 5; q + 1 rounds),
//! whose parallel classes are the rounds and whose lines are the tables.
//! Players are indices 0..n.

/// The rounds of a schedule, each a list of tables of player indices.
pub(crate) type Rounds = Vec<Vec<Vec<usize>>>;

/// A known schedule for `players` at `seats`-seat tables, with its full
/// number of rounds, if one is built in.
pub(crate) fn known(players: usize, seats: usize) -> Option<Rounds> {
    if seats == 2 && players >= 2 && players.is_multiple_of(2) {
        Some(circle(players))
    } else if (3..=5).contains(&seats) && players == seats * seats {
        Some(affine_plane(seats))
    } else {
        None
    }
}

/// Round r: the last player against r, and r + i against r - i (mod n - 1).
fn circle(n: usize) -> Rounds {
    let m = n - 1;
    (0..m)
        .map(|r| {
            let mut tables = vec![vec![r, m]];
            for i in 1..n / 2 {
                tables.push(vec![(r + i) % m, (r + m - i) % m]);
            }
            tables
        })
        .collect()
}

/// Field arithmetic of order q: integers mod q for q prime, GF(4) with
/// elements 0, 1, a = 2, a + 1 = 3 (a^2 = a + 1) for q = 4.
fn add(q: usize, x: usize, y: usize) -> usize {
    if q == 4 { x ^ y } else { (x + y) % q }
}

fn mul(q: usize, x: usize, y: usize) -> usize {
    const GF4: [[usize; 4]; 4] = [[0, 0, 0, 0], [0, 1, 2, 3], [0, 2, 3, 1], [0, 3, 1, 2]];
    if q == 4 { GF4[x][y] } else { (x * y) % q }
}

/// Points (x, y) numbered x q + y; a round per slope m (lines y = m x + b)
/// and one for the vertical lines x = c.
fn affine_plane(q: usize) -> Rounds {
    let mut rounds: Rounds = (0..q)
        .map(|m| {
            (0..q)
                .map(|b| (0..q).map(|x| x * q + add(q, mul(q, m, x), b)).collect())
                .collect()
        })
        .collect();
    rounds.push(
        (0..q)
            .map(|c| (0..q).map(|y| c * q + y).collect())
            .collect(),
    );
    rounds
}

#[cfg(test)]
mod tests {
    use super::*;

    fn each_pair_once(players: usize, rounds: &Rounds) {
        let mut met = vec![vec![0; players]; players];
        for round in rounds {
            let mut seen: Vec<usize> = round.iter().flatten().copied().collect();
            seen.sort();
            assert_eq!(
                seen,
                (0..players).collect::<Vec<_>>(),
                "everyone once a round"
            );
            for table in round {
                for (i, &a) in table.iter().enumerate() {
                    for &b in &table[i + 1..] {
                        met[a][b] += 1;
                        met[b][a] += 1;
                    }
                }
            }
        }
        for (a, row) in met.iter().enumerate() {
            for (b, &count) in row.iter().enumerate() {
                assert_eq!(count, usize::from(a != b), "{a} and {b}");
            }
        }
    }

    #[test]
    fn the_built_in_schedules_meet_every_pair_exactly_once() {
        for n in [2, 4, 6, 8, 10, 16] {
            each_pair_once(n, &known(n, 2).expect("circle"));
        }
        for q in 3..=5 {
            let rounds = known(q * q, q).expect("plane");
            assert_eq!(rounds.len(), q + 1);
            each_pair_once(q * q, &rounds);
        }
    }
}

//! Positions for a whole schedule, balanced exactly: an equitable edge
//! colouring (de Werra, 1971) of the graph joining each player to each
//! table they sit at, with one colour per position. Every table gets each
//! colour once, and every player gets each colour floor(r / k) or
//! ceil(r / k) times over r tables. A short table is padded with empty
//! seats (vertices of their own), so there the guarantee is for slots: its
//! players take the positions in the order of their slots.
//!
//! The method: start from any colouring; while a player has colour a at
//! least twice more than colour b, recolour the a/b edges: split them into
//! trails, each vertex ending at most one (an Euler partition), and colour
//! each trail a, b, a, b... The graph is bipartite, so closed trails are
//! even and every vertex ends balanced in a and b; the sum of squared
//! colour counts falls each time, so it ends.

/// Orders each table of `rounds` (player indices below `players`) into
/// positions for tables of up to `seats` seats.
pub(crate) fn balance(players: usize, seats: usize, rounds: &mut [Vec<Vec<usize>>]) {
    // Vertices: players, then one per table, then one per empty seat.
    let mut edges: Vec<(usize, usize, usize)> = Vec::new(); // (seat vertex, table vertex, colour)
    let mut tables: Vec<(usize, usize)> = Vec::new(); // (round, table)
    let mut vertices = players;
    for (r, round) in rounds.iter().enumerate() {
        for (t, table) in round.iter().enumerate() {
            let table_vertex = vertices + tables.len();
            tables.push((r, t));
            for (colour, &p) in table.iter().enumerate() {
                edges.push((p, table_vertex, colour));
            }
            for _ in table.len()..seats {
                edges.push((usize::MAX, table_vertex, 0));
            }
        }
    }
    vertices += tables.len();
    // Empty seats get their vertices and the colours their tables lack.
    for e in 0..edges.len() {
        if edges[e].0 == usize::MAX {
            let table = edges[e].1;
            let used: Vec<usize> = edges
                .iter()
                .filter(|x| x.1 == table && x.0 != usize::MAX)
                .map(|x| x.2)
                .collect();
            let taken: Vec<usize> = edges[..e]
                .iter()
                .filter(|x| x.1 == table && x.0 >= vertices)
                .map(|x| x.2)
                .collect();
            let colour = (0..seats)
                .find(|c| !used.contains(c) && !taken.contains(c))
                .unwrap_or(0);
            edges[e] = (vertices, table, colour);
            vertices += 1;
        }
    }
    while let Some((a, b)) = unbalanced(players, seats, &edges) {
        recolour(vertices, &mut edges, a, b);
    }
    for (i, &(r, t)) in tables.iter().enumerate() {
        let table_vertex = players + i;
        let mut seated: Vec<(usize, usize)> = edges
            .iter()
            .filter(|e| e.1 == table_vertex && e.0 < players)
            .map(|e| (e.2, e.0))
            .collect();
        seated.sort();
        rounds[r][t] = seated.into_iter().map(|(_, p)| p).collect();
    }
}

/// Colours (a, b) that some player holds a at least twice more than b.
fn unbalanced(
    players: usize,
    seats: usize,
    edges: &[(usize, usize, usize)],
) -> Option<(usize, usize)> {
    let mut counts = vec![vec![0usize; seats]; players];
    for &(p, _, c) in edges {
        if p < players {
            counts[p][c] += 1;
        }
    }
    for row in &counts {
        for a in 0..seats {
            for b in 0..seats {
                if row[a] >= row[b] + 2 {
                    return Some((a, b));
                }
            }
        }
    }
    None
}

/// Recolours the edges coloured `a` or `b` so every vertex holds as many
/// of one as of the other, give or take one.
fn recolour(vertices: usize, edges: &mut [(usize, usize, usize)], a: usize, b: usize) {
    let sub: Vec<usize> = (0..edges.len())
        .filter(|&e| edges[e].2 == a || edges[e].2 == b)
        .collect();
    let mut incident: Vec<Vec<usize>> = vec![Vec::new(); vertices];
    for &e in &sub {
        incident[edges[e].0].push(e);
        incident[edges[e].1].push(e);
    }
    let mut used = vec![false; edges.len()];
    let mut degree: Vec<usize> = incident.iter().map(Vec::len).collect();
    // Open trails from the odd vertices first (each ends at another odd
    // vertex), then closed trails: every vertex ends at most one trail.
    for odd_only in [true, false] {
        for start in 0..vertices {
            while degree[start] > 0 && (!odd_only || degree[start] % 2 == 1) {
                let (mut at, mut colour) = (start, a);
                while let Some(&e) = incident[at].iter().find(|&&e| !used[e]) {
                    used[e] = true;
                    edges[e].2 = colour;
                    colour = if colour == a { b } else { a };
                    degree[edges[e].0] -= 1;
                    degree[edges[e].1] -= 1;
                    at = if edges[e].0 == at {
                        edges[e].1
                    } else {
                        edges[e].0
                    };
                }
            }
        }
    }
}

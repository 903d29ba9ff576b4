//! The seating search shared by Swiss and round robin: split players, in a
//! priority order, into tables of the given sizes so that every two
//! players at a table are allowed to meet. Depth-first and complete: the
//! unseated player with the fewest unseated players left to meet heads the
//! next table (the first in the order among equals, so with nothing yet
//! constrained the order decides), and its companions are tried nearest
//! to it in the order first, so the first seating found keeps players near
//! their neighbours in the order. A branch where someone can no longer fill the smallest
//! table left is cut. Every seating is reached, so "none" is a proof
//! unless the node budget ran out first.

/// What a search ended with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Found {
    /// Tables of indices into the order.
    Tables(Vec<Vec<usize>>),
    /// No seating exists.
    None,
    /// The budget ran out before either was known.
    OutOfBudget,
}

/// One search: `allowed[i][j]` says whether players `i` and `j` (indices
/// into the order) may share a table; `unit[i]` is the index of the first
/// player of `i`'s pinned group (or `i`), pinned groups sitting together
/// and their pairs not checked.
#[derive(Debug)]
pub(crate) struct Search<'a> {
    pub allowed: &'a [Vec<bool>],
    pub unit: &'a [usize],
    /// How many tables of each size, largest size first.
    pub sizes: Vec<(usize, usize)>,
    pub budget: u64,
}

struct State<'a> {
    search: &'a Search<'a>,
    seated: Vec<bool>,
    left: Vec<usize>,
    tables: Vec<Vec<usize>>,
    nodes: u64,
}

enum Step {
    Done,
    Dead,
    Budget,
}

impl Search<'_> {
    pub(crate) fn run(&self) -> Found {
        let n = self.unit.len();
        let mut state = State {
            search: self,
            seated: vec![false; n],
            left: self.sizes.iter().map(|&(_, count)| count).collect(),
            tables: Vec::new(),
            nodes: 0,
        };
        match state.place() {
            Step::Done => Found::Tables(state.tables),
            Step::Dead => Found::None,
            Step::Budget => Found::OutOfBudget,
        }
    }

    fn members(&self, head: usize) -> impl Iterator<Item = usize> + '_ {
        (head..self.unit.len()).filter(move |&j| self.unit[j] == head)
    }
}

impl State<'_> {
    fn place(&mut self) -> Step {
        let search = self.search;
        let Some(head) = self.most_constrained() else {
            return if self.seated.iter().all(|&s| s) {
                Step::Done
            } else {
                Step::Dead
            };
        };
        let unit: Vec<usize> = search.members(search.unit[head]).collect();
        for s in 0..search.sizes.len() {
            let size = search.sizes[s].0;
            if self.left[s] == 0 || unit.len() > size {
                continue;
            }
            self.set(&unit, true);
            self.left[s] -= 1;
            let mut table = unit.clone();
            // Companions nearest the head in the order first (the better
            // placed of two as near).
            let mut near: Vec<usize> = (0..self.seated.len()).collect();
            near.sort_by_key(|&i| (i.abs_diff(head), i));
            let step = self.fill(&mut table, size, &near);
            self.left[s] += 1;
            self.set(&unit, false);
            match step {
                Step::Dead => {}
                done_or_budget => return done_or_budget,
            }
        }
        Step::Dead
    }

    /// Completes `table` to `size` with groups from `near` (positions in
    /// it, so each combination is tried once).
    fn fill(&mut self, table: &mut Vec<usize>, size: usize, near: &[usize]) -> Step {
        self.nodes += 1;
        if self.nodes > self.search.budget {
            return Step::Budget;
        }
        if table.len() == size {
            self.tables.push(table.clone());
            let step = self.place();
            if !matches!(step, Step::Done) {
                self.tables.pop();
            }
            return step;
        }
        let search = self.search;
        // The groups that could still join: if their seats cannot fill
        // the table, no choice among them will.
        let candidates: Vec<(usize, Vec<usize>)> = (0..near.len())
            .filter(|&k| !self.seated[near[k]] && search.unit[near[k]] == near[k])
            .map(|k| (k, search.members(near[k]).collect::<Vec<usize>>()))
            .filter(|(_, unit)| {
                table.len() + unit.len() <= size
                    && unit
                        .iter()
                        .all(|&u| table.iter().all(|&t| search.allowed[u][t]))
            })
            .collect();
        if table.len() + candidates.iter().map(|(_, u)| u.len()).sum::<usize>() < size {
            return Step::Dead;
        }
        for (i, unit) in candidates {
            self.set(&unit, true);
            let before = table.len();
            table.extend(&unit);
            let step = self.fill(table, size, &near[i + 1..]);
            table.truncate(before);
            self.set(&unit, false);
            match step {
                Step::Dead => {}
                done_or_budget => return done_or_budget,
            }
        }
        Step::Dead
    }

    /// The unseated group with the fewest unseated players it may meet
    /// (first in the order among equals); None if all are seated or if
    /// some group can no longer fill the smallest table left.
    fn most_constrained(&self) -> Option<usize> {
        let search = self.search;
        let smallest = (0..search.sizes.len())
            .filter(|&s| self.left[s] > 0)
            .map(|s| search.sizes[s].0)
            .min()?;
        let mut best: Option<(usize, usize)> = None;
        for i in 0..self.seated.len() {
            if self.seated[i] || search.unit[i] != i {
                continue;
            }
            let unit: Vec<usize> = search.members(i).collect();
            let free = (0..self.seated.len())
                .filter(|&j| !self.seated[j] && search.unit[j] != i)
                .filter(|&j| unit.iter().all(|&u| search.allowed[u][j]))
                .count();
            if free + unit.len() < smallest {
                return None;
            }
            if best.is_none_or(|(f, _)| free < f) {
                best = Some((free, i));
            }
        }
        best.map(|(_, i)| i)
    }

    fn set(&mut self, unit: &[usize], seated: bool) {
        for &u in unit {
            self.seated[u] = seated;
        }
    }
}

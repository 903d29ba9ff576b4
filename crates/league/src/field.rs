//! A field prepared for the seating search: the players in priority order
//! as indices, their pinned groups as units, and who may meet whom.

use crate::search::{Found, Search};
use crate::{Constraints, PairingError, PlayerId};

/// The players in order, and each one's pinned group as `unit[i]`, the
/// index of the group's first player.
#[derive(Debug)]
pub(crate) struct Prepared {
    pub order: Vec<PlayerId>,
    pub unit: Vec<usize>,
}

impl Prepared {
    pub(crate) fn new(
        order: &[PlayerId],
        constraints: &Constraints,
        seats: usize,
    ) -> Result<Self, PairingError> {
        for (i, p) in order.iter().enumerate() {
            if order[..i].contains(p) {
                return Err(PairingError::Duplicate(*p));
            }
        }
        constraints.check(order, seats)?;
        let unit = order
            .iter()
            .enumerate()
            .map(|(i, &p)| match constraints.group_of(p) {
                Some(group) => order.iter().position(|q| group.contains(q)).unwrap_or(i),
                None => i,
            })
            .collect();
        Ok(Self {
            order: order.to_vec(),
            unit,
        })
    }

    /// Searches for tables of `sizes` where `allowed(a, b)` holds for
    /// every two players not pinned together.
    pub(crate) fn search(
        &self,
        sizes: &[usize],
        budget: u64,
        allowed: impl Fn(PlayerId, PlayerId) -> bool,
    ) -> Found {
        let n = self.order.len();
        let allowed: Vec<Vec<bool>> = (0..n)
            .map(|i| {
                (0..n)
                    .map(|j| allowed(self.order[i], self.order[j]))
                    .collect()
            })
            .collect();
        let mut counts: Vec<(usize, usize)> = Vec::new();
        for &s in sizes {
            match counts.iter_mut().find(|(size, _)| *size == s) {
                Some((_, count)) => *count += 1,
                None => counts.push((s, 1)),
            }
        }
        counts.sort_by_key(|&(size, _)| std::cmp::Reverse(size));
        Search {
            allowed: &allowed,
            unit: &self.unit,
            sizes: counts,
            budget,
        }
        .run()
    }

    pub(crate) fn players(&self, table: &[usize]) -> Vec<PlayerId> {
        table.iter().map(|&i| self.order[i]).collect()
    }
}

//! An operator's pins and forbids for a seating: groups that must sit
//! together this round, and pairs that must never share a table (two
//! accounts of one owner, for one). Checked against the field once, before
//! any search.

use std::collections::BTreeSet;

use thiserror::Error;

use crate::PlayerId;

/// Pins (`together`) and forbids (`apart`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Constraints {
    pub together: Vec<Vec<PlayerId>>,
    pub apart: Vec<(PlayerId, PlayerId)>,
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ConstraintError {
    #[error("player {0} is pinned or forbidden but not in the field")]
    NotInField(PlayerId),
    #[error("player {0} is in two pinned groups")]
    PinnedTwice(PlayerId),
    #[error("a pinned group of {group} does not fit a table of {seats}")]
    GroupTooLarge { group: usize, seats: usize },
    #[error("players {0} and {1} are pinned together and forbidden to meet")]
    PinnedAndApart(PlayerId, PlayerId),
    #[error("player {0} cannot be kept apart from themself")]
    ApartFromSelf(PlayerId),
}

impl Constraints {
    /// Checks the constraints against `field` and the largest table.
    pub fn check(&self, field: &[PlayerId], seats: usize) -> Result<(), ConstraintError> {
        let known: BTreeSet<PlayerId> = field.iter().copied().collect();
        let in_field = |p: &PlayerId| {
            if known.contains(p) {
                Ok(())
            } else {
                Err(ConstraintError::NotInField(*p))
            }
        };
        let mut pinned = BTreeSet::new();
        for group in &self.together {
            if group.len() > seats {
                return Err(ConstraintError::GroupTooLarge {
                    group: group.len(),
                    seats,
                });
            }
            for p in group {
                in_field(p)?;
                if !pinned.insert(*p) {
                    return Err(ConstraintError::PinnedTwice(*p));
                }
            }
        }
        for &(a, b) in &self.apart {
            in_field(&a)?;
            in_field(&b)?;
            if a == b {
                return Err(ConstraintError::ApartFromSelf(a));
            }
            if self
                .together
                .iter()
                .any(|g| g.contains(&a) && g.contains(&b))
            {
                return Err(ConstraintError::PinnedAndApart(a, b));
            }
        }
        Ok(())
    }

    pub fn forbidden(&self, a: PlayerId, b: PlayerId) -> bool {
        self.apart
            .iter()
            .any(|&(x, y)| (x, y) == (a, b) || (x, y) == (b, a))
    }

    /// The pinned group holding `player`, if any.
    pub fn group_of(&self, player: PlayerId) -> Option<&[PlayerId]> {
        self.together
            .iter()
            .find(|g| g.contains(&player))
            .map(|g| g.as_slice())
    }
}

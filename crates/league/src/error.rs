//! Why a seating could not be made.

use thiserror::Error;

use crate::{ConstraintError, PlayerId, SplitError};

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PairingError {
    #[error(transparent)]
    Split(#[from] SplitError),
    #[error(transparent)]
    Constraint(#[from] ConstraintError),
    #[error("player {0} is in the field twice")]
    Duplicate(PlayerId),
    #[error("the pins and forbids leave no seating at all")]
    Unseatable,
    #[error("the search gave up after {0} steps without a seating; raise the budget")]
    OutOfBudget(u64),
    #[error("{players} players at tables of {seats} allow at most {most} rounds without a repeat")]
    TooManyRounds {
        players: usize,
        seats: usize,
        most: usize,
    },
    #[error(
        "no schedule of {rounds} rounds without a repeat found in {attempts} attempts; try fewer rounds or more attempts"
    )]
    NoSchedule { rounds: usize, attempts: u32 },
}

//! Who may act in a game once an append is applied: what the turn index
//! (`turns`) and an append's notice carry.

use std::sync::Arc;

use crate::AccountId;

/// Who may act once an append's events are applied: written with the
/// events, in the same statement, so the index never disagrees with a
/// committed log.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ToAct {
    /// Bit n set: seat n may act.
    pub seats: u64,
    /// The accounts holding those seats, each once: the append's notice
    /// names them ([`crate::Appended::to_act`]). For the append that ends
    /// the game, with no seat left to act, every seated account: the end
    /// concerns them all.
    pub accounts: Arc<[AccountId]>,
}

impl ToAct {
    /// As stored in `events.to_act` (a mask beyond the column's range,
    /// which no table has the seats for, is stored as not recorded).
    pub(crate) fn mask(to_act: Option<&ToAct>) -> Option<i64> {
        to_act.and_then(|t| i64::try_from(t.seats).ok())
    }
}

//! A game as the cache holds it: the aggregate ([`Live`], rebuilt from the
//! log alone) and what views show beside it that the log does not hold.
//! Kept apart so the aggregate knows neither the API's messages nor the
//! ratings table.

use std::ops::{Deref, DerefMut};
use std::sync::Arc;

use skit_engine::Ruleset;
use skit_proto::v1;

use crate::live::Live;
use crate::rated::SeatRatings;

#[derive(Debug)]
pub struct Cached {
    pub live: Live,
    /// The rules as views show them, built once per ruleset (from JSON,
    /// so not cheap, and some thirty options: a few kilobytes) and shared
    /// by every game under it ([`RulesMessages`]).
    pub rules_message: Arc<v1::Rules>,
    /// The seated accounts' ratings, so a view costs no query (see
    /// `rated::refresh`).
    pub ratings: SeatRatings,
}

impl Cached {
    /// `rules_message` is `live`'s ruleset as the API message.
    pub fn new(live: Live, rules_message: Arc<v1::Rules>) -> Self {
        Self {
            live,
            rules_message,
            ratings: SeatRatings::default(),
        }
    }
}

// Handlers work on the aggregate, through the lock guard and this in turn;
// only views and the rating hooks look at the rest.
impl Deref for Cached {
    type Target = Live;

    fn deref(&self) -> &Live {
        &self.live
    }
}

impl DerefMut for Cached {
    fn deref_mut(&mut self) -> &mut Live {
        &mut self.live
    }
}

/// The rules messages of the rulesets in play, one per ruleset. Bounded:
/// custom rulesets beyond the bound are built again when next loaded.
#[derive(Debug)]
pub struct RulesMessages(moka::sync::Cache<Ruleset, Arc<v1::Rules>>);

impl Default for RulesMessages {
    fn default() -> Self {
        Self(moka::sync::Cache::new(1024))
    }
}

impl RulesMessages {
    pub fn get(&self, rules: &Ruleset) -> Arc<v1::Rules> {
        self.0
            .get_with(*rules, || Arc::new(skit_api::rules_message(rules)))
    }
}

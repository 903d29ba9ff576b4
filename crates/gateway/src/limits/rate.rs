//! The rate limits: one keyed GCRA limiter (`governor`) per class, each
//! key a client address or a credential's hash. Keys unused for a while
//! are forgotten, so the memory they take follows the active clients.

use std::{num::NonZeroU32, sync::Arc, time::Duration};

use governor::{
    DefaultKeyedRateLimiter, Quota, RateLimiter,
    clock::{Clock, DefaultClock},
};

use super::{class::Class, client::Key};

/// How often limiters forget keys whose allowance is full again.
const FORGET_EVERY: Duration = Duration::from_secs(60);

/// Every class's limiter.
#[derive(Debug)]
pub(crate) struct RateLimits {
    limiters: Vec<(Class, DefaultKeyedRateLimiter<Key>)>,
    clock: DefaultClock,
}

impl RateLimits {
    /// Limiters for the classes with a quota; a class without one is
    /// unlimited.
    pub(crate) fn new(rates: &[(Class, Option<Quota>)]) -> Arc<Self> {
        let limiters = rates
            .iter()
            .filter_map(|&(class, quota)| Some((class, RateLimiter::keyed(quota?))))
            .collect();
        let limits = Arc::new(Self {
            limiters,
            clock: DefaultClock::default(),
        });
        tokio::spawn(forget_idle_keys(Arc::downgrade(&limits)));
        limits
    }

    /// `Ok` if `key` may make a call of `class` that counts as `cost`
    /// calls now (and counts them), else how long until it may. A cost
    /// above the class's burst counts as the burst, so such a call can
    /// still be made.
    pub(crate) fn check(&self, class: Class, key: &Key, cost: NonZeroU32) -> Result<(), Duration> {
        let Some((_, limiter)) = self.limiters.iter().find(|(c, _)| *c == class) else {
            return Ok(());
        };
        let counted = match limiter.check_key_n(key, cost) {
            Ok(counted) => counted,
            Err(governor::InsufficientCapacity(burst)) => {
                let burst = NonZeroU32::new(burst).unwrap_or(NonZeroU32::MIN);
                limiter.check_key_n(key, burst).unwrap_or(Ok(()))
            }
        };
        counted.map_err(|not_until| not_until.wait_time_from(self.clock.now()))
    }
}

async fn forget_idle_keys(limits: std::sync::Weak<RateLimits>) {
    let mut every = tokio::time::interval(FORGET_EVERY);
    every.tick().await;
    loop {
        every.tick().await;
        let Some(limits) = limits.upgrade() else {
            return;
        };
        for (_, limiter) in &limits.limiters {
            limiter.retain_recent();
            limiter.shrink_to_fit();
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    const ONE: NonZeroU32 = NonZeroU32::MIN;

    #[tokio::test]
    async fn a_key_past_its_burst_is_told_when_to_retry_and_others_are_not() {
        let slow =
            Quota::per_minute(NonZeroU32::new(1).unwrap()).allow_burst(NonZeroU32::new(2).unwrap());
        let limits = RateLimits::new(&[(Class::Signup, Some(slow)), (Class::Moves, None)]);
        let flooder = Key::Address("192.0.2.1".parse().unwrap());
        let other = Key::Address("192.0.2.2".parse().unwrap());

        let answers: Vec<_> = (0..3)
            .map(|_| limits.check(Class::Signup, &flooder, ONE))
            .collect();

        assert!(answers[..2].iter().all(Result::is_ok), "{answers:?}");
        let wait = answers[2].unwrap_err();
        assert!(wait > Duration::from_secs(50) && wait <= Duration::from_secs(60));
        assert!(limits.check(Class::Signup, &other, ONE).is_ok());
        assert!((0..1000).all(|_| limits.check(Class::Moves, &flooder, ONE).is_ok()));
    }

    #[tokio::test]
    async fn a_costly_call_uses_up_as_many_calls_and_one_over_the_burst_all_of_it() {
        let reads = Quota::per_minute(NonZeroU32::new(1).unwrap())
            .allow_burst(NonZeroU32::new(10).unwrap());
        let limits = RateLimits::new(&[(Class::Reads, Some(reads))]);
        let (costly, heavy) = (
            Key::Address("192.0.2.1".parse().unwrap()),
            Key::Address("192.0.2.2".parse().unwrap()),
        );
        let four = NonZeroU32::new(4).unwrap();
        let fifty = NonZeroU32::new(50).unwrap();

        let costly_answers: Vec<_> = (0..3)
            .map(|_| limits.check(Class::Reads, &costly, four))
            .collect();
        let after = limits.check(Class::Reads, &costly, ONE);
        let heavy_first = limits.check(Class::Reads, &heavy, fifty);
        let heavy_then = limits.check(Class::Reads, &heavy, ONE);

        // 4 + 4 of 10, then 2 left: a third costly call waits, a plain one
        // passes; a call over the burst takes all ten.
        assert!(
            costly_answers[..2].iter().all(Result::is_ok),
            "{costly_answers:?}"
        );
        assert!(costly_answers[2].is_err(), "{costly_answers:?}");
        assert!(after.is_ok());
        assert!(heavy_first.is_ok());
        assert!(heavy_then.is_err());
    }
}

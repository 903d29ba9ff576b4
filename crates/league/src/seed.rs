//! The event's seed and everything drawn from it. Each use draws from its
//! own stream, ChaCha20 keyed by sha256(label, seed, index), and shuffles
//! with a Fisher-Yates written out here (not a library's sampling code,
//! which may change between versions), so a stored seed replays the same
//! seating for as long as the event's records are kept.

use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;
use sha2::{Digest, Sha256};

use crate::PlayerId;

/// The seed an event stores at creation; every random choice of its
/// seatings and its last tiebreak comes from it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Seed(pub u64);

impl Seed {
    /// sha256 of `label`, a zero byte, the seed and `index` (both 8 bytes
    /// big-endian).
    pub fn derive(self, label: &str, index: u64) -> [u8; 32] {
        let mut hash = Sha256::new();
        hash.update(label.as_bytes());
        hash.update([0]);
        hash.update(self.0.to_be_bytes());
        hash.update(index.to_be_bytes());
        hash.finalize().into()
    }

    /// The last tiebreak's value for `player`: higher ranks first.
    pub fn lot(self, player: PlayerId) -> [u8; 32] {
        self.derive("skit-league lot", player.0)
    }

    pub(crate) fn stream(self, label: &str, index: u64) -> Stream {
        Stream(ChaCha20Rng::from_seed(self.derive(label, index)))
    }
}

/// A stream of draws for one use of the seed.
#[derive(Debug)]
pub(crate) struct Stream(ChaCha20Rng);

impl Stream {
    /// Uniform in `0..n` (`n >= 1`), by rejection: draws of `next_u32`
    /// at or above the largest multiple of `n` are drawn again.
    pub(crate) fn below(&mut self, n: u32) -> u32 {
        let zone = u32::MAX - (u32::MAX % n + 1) % n;
        loop {
            let x = self.0.next_u32();
            if x <= zone {
                return x % n;
            }
        }
    }

    /// Fisher-Yates from the end: for i = len-1 down to 1, swap i with
    /// `below(i + 1)`.
    pub(crate) fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u32 + 1) as usize;
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seed_replays_the_same_shuffle_and_another_seed_does_not() {
        let shuffled = |seed: u64| {
            let mut items: Vec<u32> = (0..20).collect();
            Seed(seed).stream("test", 1).shuffle(&mut items);
            items
        };
        assert_eq!(shuffled(7), shuffled(7));
        assert_ne!(shuffled(7), shuffled(8));
        let mut sorted = shuffled(7);
        sorted.sort();
        assert_eq!(sorted, (0..20).collect::<Vec<_>>());
    }

    #[test]
    fn below_stays_below() {
        let mut stream = Seed(1).stream("test", 0);
        for n in 1..50 {
            assert!(stream.below(n) < n);
        }
    }
}

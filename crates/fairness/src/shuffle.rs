//! The pinned algorithm `skitgubbe-shuffle-v1`: how a seed becomes the deck,
//! the dealer and every later chance outcome. `docs/fairness.md` describes
//! it step by step; the test vectors there and in
//! `tests/fairness/vectors.rs` must never change. A different algorithm gets
//! a new name.

use rand_chacha::ChaCha20Rng;
use rand_chacha::rand_core::{RngCore, SeedableRng};
use sha2::{Digest, Sha256};
use skit_engine::{Card, CardSet, Seat};

use crate::Seed;

/// The algorithm's name, also hashed into every event's key.
pub const ALGORITHM: &str = "skitgubbe-shuffle-v1";

/// The random stream of one chance event: ChaCha20 keyed by
/// `sha256(seed || ALGORITHM || k as u64 big-endian)`, read 32 bits at a time.
///
/// Only `next_u32` is used: rand_chacha documents its ChaCha output as
/// reproducible, and one word per call is the keystream's own order, which
/// other languages can reproduce without rand's sampling code.
struct EventStream(ChaCha20Rng);

impl EventStream {
    fn new(seed: &Seed, k: u64) -> EventStream {
        let mut hash = Sha256::new();
        hash.update(seed.as_bytes());
        hash.update(ALGORITHM.as_bytes());
        hash.update(k.to_be_bytes());
        EventStream(ChaCha20Rng::from_seed(hash.finalize().into()))
    }

    /// Uniform in `0..n` (`n >= 1`): draw words until one falls below the
    /// largest multiple of `n` that is at most 2^32, then take it modulo `n`.
    fn below(&mut self, n: u32) -> u32 {
        let n = u64::from(n.max(1));
        let zone = (1u64 << 32) - (1u64 << 32) % n;
        loop {
            let word = u64::from(self.0.next_u32());
            if word < zone {
                return (word % n) as u32;
            }
        }
    }

    /// Fisher–Yates from the last index down to 1, swapping `i` with a `j`
    /// drawn uniformly in `0..=i`.
    fn shuffle(&mut self, cards: &mut [Card]) {
        for i in (1..cards.len()).rev() {
            let j = self.below(i as u32 + 1) as usize;
            cards.swap(i, j);
        }
    }
}

/// The deck of event 0 and the stream left just after it, for the dealer.
fn deck_and_stream(seed: &Seed) -> (Vec<Card>, EventStream) {
    let mut stream = EventStream::new(seed, 0);
    let mut deck: Vec<Card> = Card::all().collect();
    stream.shuffle(&mut deck);
    (deck, stream)
}

/// The pack's order for the deal (chance event 0): the 52 cards in
/// [`Card::all`] order (clubs 2..A, diamonds, hearts, spades), shuffled.
pub fn deck(seed: &Seed) -> Vec<Card> {
    deck_and_stream(seed).0
}

/// The dealer when the game was created without one: the next draw of event
/// 0's stream after the deck, uniform in `0..players`.
pub fn dealer(seed: &Seed, players: u8) -> Seat {
    deal(seed, players).1
}

/// The deck and the drawn dealer together.
pub fn deal(seed: &Seed, players: u8) -> (Vec<Card>, Seat) {
    let (deck, mut stream) = deck_and_stream(seed);
    let dealer = stream.below(u32::from(players)) as Seat;
    (deck, dealer)
}

/// The outcome of chance event `k` (`k >= 1`: the k-th shuffle the game
/// awaits after the deal): the awaited cards in ascending order (rank, then
/// suit C D H S), shuffled. Use it as `Action::Shuffle(outcome)`.
pub fn outcome(seed: &Seed, k: u64, awaited: CardSet) -> Vec<Card> {
    let mut cards: Vec<Card> = awaited.ascending().collect();
    EventStream::new(seed, k).shuffle(&mut cards);
    cards
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The generator is standard ChaCha20 (20 rounds, counter from 0, zero
    /// nonce): its first words for the all-zero key are the published
    /// keystream `76 b8 e0 ad a0 f1 3d 90 ...` read little-endian.
    #[test]
    fn the_generator_is_plain_chacha20() {
        let mut rng = ChaCha20Rng::from_seed([0u8; 32]);
        assert_eq!(rng.next_u32(), 0xade0_b876);
        assert_eq!(rng.next_u32(), 0x903d_f1a0);
    }

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut stream = EventStream::new(&Seed::from_bytes([7; 32]), 3);
        let mut seen = [false; 5];
        for _ in 0..200 {
            let x = stream.below(5) as usize;
            seen[x] = true;
        }
        assert!(seen.iter().all(|&s| s));
        assert_eq!(stream.below(1), 0);
    }
}

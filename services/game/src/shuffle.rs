//! How a game's secret seed becomes its deck, its dealer and every later
//! chance outcome (SPEC 7). The one place that knows the algorithm, so it
//! can be swapped for the shared `fairness` crate by changing this file.
//!
//! Pinned (never changes under `skitgubbe-shuffle-v1`): the k-th chance
//! outcome (k = 0 is the deal) uses ChaCha20 seeded with
//! `sha256(seed || "skitgubbe-shuffle-v1" || k as u64 big-endian)`. A
//! number below `n` is the first 32-bit output `x` below
//! `floor(2^32 / n) * n`, taken `mod n` (rejection, so no bias). For the
//! deal, a dealer not given is drawn first (below the player count); then
//! the cards, listed by ascending card index, are shuffled by Fisher–Yates
//! from the last position down: for `i` from `len-1` to 1, swap `i` with a
//! number below `i+1`.

use std::fmt;

use rand::TryRngCore;
use rand::rngs::OsRng;
use rand_chacha::ChaCha20Rng;
use rand_chacha::rand_core::{RngCore, SeedableRng};
use sha2::{Digest, Sha256};
use skit_engine::{Card, CardSet, Seat};

const DOMAIN: &[u8] = b"skitgubbe-shuffle-v1";

/// A game's secret: 32 bytes from the operating system. `Debug` hides it.
#[derive(Clone, PartialEq, Eq)]
pub struct Seed([u8; 32]);

impl fmt::Debug for Seed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Seed(<secret>)")
    }
}

/// The operating system could not give randomness.
#[derive(Debug, thiserror::Error)]
#[error("no randomness from the operating system")]
pub struct NoRandomness;

/// A stored seed that is not 64 hex digits.
#[derive(Debug, thiserror::Error)]
#[error("a seed is 64 hex digits")]
pub struct BadSeed;

impl Seed {
    pub fn generate() -> Result<Seed, NoRandomness> {
        let mut bytes = [0u8; 32];
        OsRng.try_fill_bytes(&mut bytes).map_err(|_| NoRandomness)?;
        Ok(Seed(bytes))
    }

    pub fn from_hex(text: &str) -> Result<Seed, BadSeed> {
        let bytes = hex::decode(text).map_err(|_| BadSeed)?;
        Ok(Seed(bytes.try_into().map_err(|_| BadSeed)?))
    }

    /// Lower-case hex: what is stored and, once the game is over, revealed.
    pub fn to_hex(&self) -> String {
        hex::encode(self.0)
    }

    /// sha256 of the seed's bytes, lower-case hex: published at creation.
    pub fn commitment(&self) -> String {
        hex::encode(Sha256::digest(self.0))
    }

    fn rng(&self, k: u64) -> ChaCha20Rng {
        let digest = Sha256::new()
            .chain_update(self.0)
            .chain_update(DOMAIN)
            .chain_update(k.to_be_bytes())
            .finalize();
        ChaCha20Rng::from_seed(digest.into())
    }

    /// The deal (outcome 0): the dealer (drawn unless given) and the deck.
    pub fn deal(&self, players: u8, dealer: Option<Seat>) -> (Seat, Vec<Card>) {
        let mut rng = self.rng(0);
        let dealer = match dealer {
            Some(d) => d,
            // `players` is at most 8, so the draw fits a seat.
            None => below(&mut rng, u32::from(players.max(1))) as Seat,
        };
        let mut deck: Vec<Card> = Card::all().collect();
        fisher_yates(&mut rng, &mut deck);
        (dealer, deck)
    }

    /// The k-th chance outcome after the deal (k >= 1): an order of `cards`.
    pub fn outcome(&self, k: u64, cards: CardSet) -> Vec<Card> {
        let mut rng = self.rng(k);
        let mut order: Vec<Card> = cards.iter().collect();
        order.sort_by_key(|c| c.index());
        fisher_yates(&mut rng, &mut order);
        order
    }
}

fn below(rng: &mut ChaCha20Rng, n: u32) -> u32 {
    let limit = (u32::MAX / n) * n;
    loop {
        let x = rng.next_u32();
        if x < limit {
            return x % n;
        }
    }
}

fn fisher_yates(rng: &mut ChaCha20Rng, cards: &mut [Card]) {
    for i in (1..cards.len()).rev() {
        // `i + 1` is at most 52.
        let j = below(rng, (i + 1) as u32) as usize;
        cards.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn zero_seed() -> Seed {
        Seed::from_hex(&"00".repeat(32)).expect("valid hex")
    }

    #[test]
    fn seed_round_trips_and_commits() {
        let seed = Seed::generate().expect("os randomness");
        assert_eq!(Seed::from_hex(&seed.to_hex()).expect("hex"), seed);
        // sha256 of 32 zero bytes.
        assert_eq!(
            zero_seed().commitment(),
            "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
        );
        assert!(Seed::from_hex("abcd").is_err());
    }

    #[test]
    fn deal_is_a_permutation_and_pinned() {
        let (dealer, deck) = zero_seed().deal(3, None);
        let set: CardSet = deck.iter().copied().collect();
        assert_eq!((deck.len(), set.len()), (52, 52));
        let head: Vec<String> = deck.iter().take(6).map(|c| c.to_string()).collect();
        // The test vector: changing it breaks every published seed.
        assert_eq!(
            (dealer, head.join(" ")),
            (PINNED_DEALER, PINNED_HEAD.to_owned())
        );
        assert_eq!(zero_seed().deal(3, Some(2)).0, 2);
    }

    #[test]
    fn outcomes_order_exactly_the_cards() {
        let cards: CardSet = Card::all().take(7).collect();
        let order = zero_seed().outcome(1, cards);
        assert_eq!(order.iter().copied().collect::<CardSet>(), cards);
        assert_ne!(order, zero_seed().outcome(2, cards));
    }

    const PINNED_DEALER: Seat = 2;
    const PINNED_HEAD: &str = "8H 6H 2C 2D TS 2H";
}

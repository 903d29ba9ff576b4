//! Duplicate deals: each deal is played k times at a table of k seats,
//! rotation r seating name `(s + r) mod k` at seat s, so every bot plays
//! every seat of the same cards. Deal d's seed is
//! `sha256("skit-arena-deal" || master || d)` (both as u64 big-endian);
//! the deck, the dealer and every later chance outcome come from it by
//! `skitgubbe-shuffle-v1` (docs/fairness.md), as in a service game, so
//! anyone can recompute each deal from its printed seed.

use rand::RngCore;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sha2::{Digest, Sha256};
use skit_bots::Budget;
use skit_engine::{CardSet, Ruleset, Seat};
use skit_fairness::Seed;

use super::player::Player;
use super::table::{self, Chance, Outcome};

/// What deal seeds are hashed with.
pub const DEAL_TAG: &str = "skit-arena-deal";

/// Deal `deal`'s seed under master seed `master`.
pub fn deal_seed(master: u64, deal: u64) -> Seed {
    let mut hash = Sha256::new();
    hash.update(DEAL_TAG.as_bytes());
    hash.update(master.to_be_bytes());
    hash.update(deal.to_be_bytes());
    Seed::from_bytes(hash.finalize().into())
}

/// For k seats: rotation r seats name `rotations(k)[r][s]` at seat s.
pub fn rotations(k: usize) -> Vec<Vec<usize>> {
    (0..k)
        .map(|r| (0..k).map(|s| (s + r) % k).collect())
        .collect()
}

/// One game of a deal: who sat where and how it ended.
#[derive(Clone, Debug)]
pub struct Game {
    /// Index into the names, seat by seat.
    pub seats: Vec<usize>,
    pub outcome: Outcome,
}

/// Every rotation of one deal.
#[derive(Clone, Debug)]
pub struct Deal {
    pub seed: Seed,
    pub dealer: Seat,
    pub games: Vec<Game>,
}

/// Plays deal `deal` of `master` once per rotation of `names` (one name per
/// seat).
pub fn play(
    rules: Ruleset,
    names: &[String],
    budget: Budget,
    master: u64,
    deal: u64,
) -> anyhow::Result<Deal> {
    let k = names.len();
    let seed = deal_seed(master, deal);
    let (deck, dealer) = skit_fairness::deal(&seed, k as u8);
    let mut games = Vec::with_capacity(k);
    for (r, seats) in rotations(k).into_iter().enumerate() {
        let mut players = seats
            .iter()
            .map(|&i| Player::new(&names[i], budget))
            .collect::<anyhow::Result<Vec<_>>>()?;
        // Stream 0 orders simultaneous actors alike in every rotation; each
        // (rotation, seat) has its own stream for its bot.
        let mut order = ChaCha8Rng::from_seed(*seed.as_bytes());
        let mut bots: Vec<Box<dyn RngCore>> = (0..k)
            .map(|s| {
                let mut rng = ChaCha8Rng::from_seed(*seed.as_bytes());
                rng.set_stream(1 + (r * k + s) as u64);
                Box::new(rng) as Box<dyn RngCore>
            })
            .collect();
        let outcome = table::play(
            rules,
            &deck,
            dealer,
            &mut players,
            Chance {
                shuffle: &mut |event: u64, awaited: CardSet| {
                    skit_fairness::outcome(&seed, event, awaited)
                },
                order: &mut order,
                bots: &mut bots,
            },
        )?;
        games.push(Game { seats, outcome });
    }
    Ok(Deal {
        seed,
        dealer,
        games,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotations_seat_every_name_in_every_seat_once() {
        for k in 2..=6 {
            let rotations = rotations(k);
            assert_eq!(rotations.len(), k);
            for seat in 0..k {
                let mut names: Vec<usize> = rotations.iter().map(|r| r[seat]).collect();
                names.sort_unstable();
                assert_eq!(names, (0..k).collect::<Vec<_>>(), "seat {seat} of {k}");
            }
            for r in &rotations {
                let mut seated = r.clone();
                seated.sort_unstable();
                assert_eq!(seated, (0..k).collect::<Vec<_>>(), "one seat each");
            }
        }
    }

    #[test]
    fn deal_seeds_are_fixed_by_master_and_number() {
        assert_eq!(deal_seed(1, 0), deal_seed(1, 0));
        assert_ne!(deal_seed(1, 0), deal_seed(1, 1));
        assert_ne!(deal_seed(1, 0), deal_seed(2, 0));
        let mut hash = Sha256::new();
        hash.update(b"skit-arena-deal");
        hash.update([0, 0, 0, 0, 0, 0, 0, 7]);
        hash.update([0, 0, 0, 0, 0, 0, 0, 3]);
        let bytes: [u8; 32] = hash.finalize().into();
        assert_eq!(deal_seed(7, 3).to_hex(), Seed::from_bytes(bytes).to_hex());
    }

    #[test]
    fn a_deal_seats_every_bot_in_every_seat_on_the_same_cards() {
        let names: Vec<String> = ["random", "greedy", "omniscient"]
            .map(String::from)
            .to_vec();
        let budget = Budget {
            time: None,
            playouts: 8,
            determinizations: 2,
            ..Budget::default()
        };
        let rules = Ruleset::preset(skit_engine::Preset::Skitgubbe);
        for d in 0..2 {
            let deal = play(rules, &names, budget, 5, d).expect("a deal");
            assert_eq!(deal.seed, deal_seed(5, d));
            assert_eq!(deal.dealer, skit_fairness::deal(&deal.seed, 3).1);
            assert_eq!(deal.games.len(), 3);
            for seat in 0..3 {
                let mut at: Vec<usize> = deal.games.iter().map(|g| g.seats[seat]).collect();
                at.sort_unstable();
                assert_eq!(at, [0, 1, 2], "deal {d} seat {seat}");
            }
            for game in &deal.games {
                let o = game.outcome;
                assert!(o.loser.is_some() != o.drawn, "one loser or a draw: {o:?}");
            }
        }
    }
}

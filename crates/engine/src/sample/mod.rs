//! Sampled worlds: full games that one seat (or a spectator) cannot tell
//! from the real one, for search bots (PIMC, ISMCTS) and researchers.
//!
//! Every card the viewer cannot locate is *hidden*: the unknown part of
//! another hand, the stock and the reserve (each card in its place), the
//! trump card while it lies face down, and the part of a phase-one pile whose
//! cards were dealt unseen. Hidden cards fall in groups that may trade places:
//! the cards never shown, and for each public chance outcome (low cards, an
//! unfinished trick's deal, a Koira split) the cards it dealt unseen. How
//! many cards of each group lie in each place is public; which ones is not.
//!
//! A sample fills each group's places with a uniformly random arrangement of
//! its cards, built from public facts and the seed alone: the real
//! arrangement is never its starting point, so the sample says nothing about
//! it (two games the viewer cannot tell apart give the same samples for the
//! same seed). Revealed voids (a suit not followed, a rank not tied, a card
//! that would beat not played) are kept by rejection: a hand may not hold
//! more cards of a void than it has taken in unseen since (docs/engine.md).

mod pins;
pub(crate) mod place;
mod rebuild;

use std::collections::BTreeMap;

use rand::seq::SliceRandom;
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::known::{face_down_trump, pile};
use crate::{Card, CardSet, Game, Seat, View};
use rebuild::Rebuild;

/// Arrangements tried per sample before giving up on the revealed voids.
pub const SAMPLE_ATTEMPTS: u32 = 10_000;

/// Where a hidden card lies. Slots of one group are filled in this order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Slot {
    Hand(Seat),
    Pile(Seat),
    /// Stock position, bottom card first.
    Stock(u8),
    /// Reserve position, top card first.
    Reserve(u8),
    FaceDownTrump,
}

/// Cards that may trade places with each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Group {
    /// Never shown to everyone.
    Unseen,
    /// Shown, then dealt unseen by the n-th public shuffle.
    Dealt(u8),
}

/// Why no worlds could be sampled.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SampleError {
    #[error("seat {seat} is not at this table of {players}")]
    NoSuchSeat { seat: Seat, players: u8 },
    #[error("no arrangement keeping the revealed voids found in {SAMPLE_ATTEMPTS} tries")]
    Voids,
    #[error(
        "no game agreeing with this view could be rebuilt from its history \
         (a spectator's view, a game started from a position, or no repair found)"
    )]
    Unrebuilt,
}

/// Every card's place in one world: what a sample assigns.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct World {
    pub hands: Vec<CardSet>,
    /// Phase-one piles.
    pub piles: Vec<CardSet>,
    /// The stock, top card (drawn next) first.
    pub stock: Vec<Card>,
    /// The two-player reserve, top card first.
    pub reserve: Vec<Card>,
    /// The trump card while it lies face down apart from the hands.
    pub face_down_trump: Option<Card>,
}

impl View {
    /// `n` games this view's seat cannot tell from the one the view was
    /// taken of, from the view alone (for a bot that holds only views): a
    /// game is rebuilt from the view's history (replay and repair), then its
    /// hidden cards are arranged as [`Game::sample_worlds`] arranges them, so
    /// the worlds follow the same distribution. The view must hold the whole
    /// history. Seeded and reproducible.
    pub fn sample_worlds(&self, n: usize, seed: u64) -> Result<Vec<Game>, SampleError> {
        let rebuild = Rebuild::new(self).ok_or(SampleError::Unrebuilt)?;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let game = rebuild.game(&mut rng).ok_or(SampleError::Unrebuilt)?;
        game.sample_worlds(self.seat, n, rng.next_u64())
    }
}

impl Game {
    /// Where every card is in this game: the full assignment a sample makes.
    pub fn world(&self) -> World {
        let s = self.state();
        World {
            hands: (0..s.players()).map(|p| s.hand(p)).collect(),
            piles: (0..s.players()).map(|p| pile(s, p)).collect(),
            stock: s.piles.stock_cards().iter().rev().copied().collect(),
            reserve: s.piles.reserve_cards().to_vec(),
            face_down_trump: face_down_trump(s).first(),
        }
    }

    /// `n` games `viewer` cannot tell from this one (`None`: a spectator):
    /// the same history, view and legal actions for the viewer, with the
    /// hidden cards arranged at random (see the module docs). The same
    /// game, viewer, `n` and `seed` give the same worlds, and the first `k`
    /// of `n` worlds are the worlds of `n = k`.
    pub fn sample_worlds(
        &self,
        viewer: Option<Seat>,
        n: usize,
        seed: u64,
    ) -> Result<Vec<Game>, SampleError> {
        let players = self.state().players();
        if let Some(seat) = viewer.filter(|&s| s >= players) {
            return Err(SampleError::NoSuchSeat { seat, players });
        }
        let hidden = self.hidden(viewer);
        let mut groups: BTreeMap<Group, (Vec<Card>, Vec<Slot>)> = BTreeMap::new();
        for &(card, slot) in &hidden {
            let group = groups.entry(self.group(card)).or_default();
            group.0.push(card);
            group.1.push(slot);
        }
        for (cards, slots) in groups.values_mut() {
            cards.sort_unstable_by_key(|c| c.index());
            slots.sort_unstable();
        }
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut worlds = Vec::with_capacity(n);
        for _ in 0..n {
            let target = (0..SAMPLE_ATTEMPTS)
                .map(|_| arrange(&groups, &mut rng))
                .find(|target| self.keeps_voids(viewer, target))
                .ok_or(SampleError::Voids)?;
            let mut world = self.clone();
            world.state = realize(self, &hidden, &target);
            worlds.push(world);
        }
        Ok(worlds)
    }

    /// Every card `viewer` cannot locate, with where it lies.
    fn hidden(&self, viewer: Option<Seat>) -> Vec<(Card, Slot)> {
        let s = self.state();
        let known = self.known();
        let mut out = Vec::new();
        for seat in (0..s.players()).filter(|&p| Some(p) != viewer) {
            out.extend(
                (s.hand(seat) - known.hand(seat))
                    .iter()
                    .map(|c| (c, Slot::Hand(seat))),
            );
        }
        for seat in 0..s.players() {
            let unseen = pile(s, seat) - known.pile(seat);
            out.extend(unseen.iter().map(|c| (c, Slot::Pile(seat))));
        }
        let turned = s.turned_card();
        for (i, &card) in s.piles.stock_cards().iter().enumerate() {
            if Some(card) != turned {
                out.push((card, Slot::Stock(i as u8)));
            }
        }
        for (i, &card) in s.piles.reserve_cards().iter().enumerate() {
            out.push((card, Slot::Reserve(i as u8)));
        }
        out.extend(face_down_trump(s).iter().map(|c| (c, Slot::FaceDownTrump)));
        out
    }

    fn group(&self, card: Card) -> Group {
        let known = self.known();
        if known.ever_shown().contains(card) {
            Group::Dealt(known.shuffle_of(card).unwrap_or(u8::MAX))
        } else {
            Group::Unseen
        }
    }

    /// Whether no hand holds more cards of a revealed void than it has taken
    /// in unseen since the void was revealed.
    fn keeps_voids(&self, viewer: Option<Seat>, target: &[(Card, Slot)]) -> bool {
        let known = self.known();
        known.voids().iter().all(|void| {
            if Some(void.seat) == viewer {
                return true;
            }
            let held = target
                .iter()
                .filter(|&&(card, slot)| slot == Slot::Hand(void.seat) && void.cards.contains(card))
                .count() as u32;
            held <= known.unseen_entries(void.seat) - void.unseen_entries
        })
    }
}

/// A random arrangement: each group's cards shuffled into its slots.
fn arrange(
    groups: &BTreeMap<Group, (Vec<Card>, Vec<Slot>)>,
    rng: &mut ChaCha8Rng,
) -> Vec<(Card, Slot)> {
    let mut target = Vec::new();
    for (cards, slots) in groups.values() {
        let mut cards = cards.clone();
        cards.shuffle(rng);
        target.extend(cards.into_iter().zip(slots.iter().copied()));
    }
    target
}

/// The game's state with every hidden card moved to its target slot, by
/// exchanges of two hidden cards (so everything else stays as it is).
fn realize(game: &Game, hidden: &[(Card, Slot)], target: &[(Card, Slot)]) -> crate::State {
    let mut state = *game.state();
    let mut at: [Option<Slot>; 64] = [None; 64];
    let mut goal: [Option<Slot>; 64] = [None; 64];
    for &(card, slot) in hidden {
        at[card.index() as usize] = Some(slot);
    }
    for &(card, slot) in target {
        goal[card.index() as usize] = Some(slot);
    }
    for &(card, slot) in target {
        if at[card.index() as usize] == Some(slot) {
            continue;
        }
        // A card in that slot that belongs elsewhere: one exists, since each
        // slot holds as many cards as are meant for it.
        let other = hidden.iter().map(|&(c, _)| c).find(|c| {
            let i = c.index() as usize;
            at[i] == Some(slot) && goal[i] != Some(slot)
        });
        if let Some(other) = other {
            state.swap_cards(card, other);
            at.swap(card.index() as usize, other.index() as usize);
        }
    }
    state
}

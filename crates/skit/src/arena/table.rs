//! One arena game from a deal to its end: chance outcomes from a given
//! source, the seat to act (when several may) from a seeded generator, and
//! every decision from the seat's player with its own generator.

use std::time::Duration;

use anyhow::Context;
use cpu_time::ThreadTime;
use rand::RngCore;
use rand::seq::IndexedRandom;
use skit_engine::{Action, Card, CardSet, Game, MAX_SEATS, Move, Phase, Ruleset, Seat};

use super::player::Player;

/// How one game ended, seat by seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub loser: Option<Seat>,
    pub drawn: bool,
    /// Per seat, the most CPU time one of its decisions took.
    pub slowest: [Duration; MAX_SEATS],
}

/// Everything random in one game besides the deck.
pub struct Chance<'a> {
    /// The order of the k-th awaited shuffle's cards (k from 1).
    pub shuffle: &'a mut dyn FnMut(u64, CardSet) -> Vec<Card>,
    /// Picks the seat to act when several may.
    pub order: &'a mut dyn RngCore,
    /// One generator per seat, for its player.
    pub bots: &'a mut [Box<dyn RngCore>],
}

/// Plays the deal of `deck` with `dealer` to the end, seat s asking
/// `players[s]`.
pub fn play(
    rules: Ruleset,
    deck: &[Card],
    dealer: Seat,
    players: &mut [Player],
    chance: Chance,
) -> anyhow::Result<Outcome> {
    let n = players.len() as u8;
    let mut game = Game::deal(rules, n, dealer, deck)?;
    let mut shuffles = 0;
    let mut slowest = [Duration::ZERO; MAX_SEATS];
    while game.state().phase() != Phase::Over {
        let awaited = game.state().awaited_cards();
        if !awaited.is_empty() {
            shuffles += 1;
            game.apply(&Action::Shuffle((chance.shuffle)(shuffles, awaited)))?;
            continue;
        }
        let seats: Vec<Seat> = game.to_act().iter().collect();
        let seat = *seats
            .choose(&mut *chance.order)
            .context("no seat may act")?;
        let s = usize::from(seat);
        let clock = ThreadTime::try_now().ok();
        let kind = players[s]
            .choose(&game, seat, &mut chance.bots[s])
            .context("a player made no choice")?;
        if let Some(spent) = clock.and_then(|c| c.try_elapsed().ok()) {
            slowest[s] = slowest[s].max(spent);
        }
        game.apply(&Move::new(seat, kind).into())
            .with_context(|| format!("{} chose an illegal action", players[s].name()))?;
    }
    let state = game.state();
    Ok(Outcome {
        loser: state.loser(),
        drawn: state.drawn(),
        slowest,
    })
}

//! A seat at an arena table: a strategy that sees its seat's view, or the
//! omniscient bot that sees the whole state (which only the arena, holding
//! the game, can seat).

use anyhow::Context;
use rand::RngCore;
use skit_bots::{Budget, Omniscient, Strategy};
use skit_engine::{Game, MoveKind, Seat};

/// One seat's bot.
#[derive(Debug)]
pub enum Player {
    View(Box<dyn Strategy>),
    Omniscient(Omniscient),
}

/// Every name the arena can seat.
pub fn names() -> Vec<&'static str> {
    let mut names = skit_bots::NAMES.to_vec();
    names.push(Omniscient::NAME);
    names
}

impl Player {
    /// The bot called `name`, searches with `budget`.
    pub fn new(name: &str, budget: Budget) -> anyhow::Result<Player> {
        if name == Omniscient::NAME {
            return Ok(Player::Omniscient(Omniscient::new(budget)));
        }
        skit_bots::by_name_with(name, budget)
            .map(Player::View)
            .with_context(|| format!("unknown strategy {name:?} (known: {:?})", names()))
    }

    pub fn name(&self) -> &'static str {
        match self {
            Player::View(strategy) => strategy.name(),
            Player::Omniscient(_) => Omniscient::NAME,
        }
    }

    /// `seat`'s choice in `game`.
    pub fn choose(&mut self, game: &Game, seat: Seat, rng: &mut dyn RngCore) -> Option<MoveKind> {
        match self {
            Player::View(strategy) => strategy.choose(&game.view(Some(seat)), rng),
            Player::Omniscient(bot) => bot.choose(game.rules(), game.state(), seat, rng),
        }
    }
}

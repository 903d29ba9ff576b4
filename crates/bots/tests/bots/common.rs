//! Helpers shared by the bot tests: seeded games driven to the end.

use rand::seq::{IndexedRandom, SliceRandom};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use skit_bots::{Budget, Ismcts, Search, Strategy};
use skit_engine::{Action, Card, Game, Move, Phase, Preset, Ruleset, Seat};

pub fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// A budget cheap enough for debug builds, bounded by playouts alone so
/// that choices depend only on the view and the generator.
pub fn small_budget() -> Budget {
    Budget {
        time: None,
        determinizations: 2,
        playouts: 6,
        candidates: 4,
        ..Budget::default()
    }
}

pub fn small_search() -> Search {
    Search::new(small_budget())
}

pub fn small_ismcts() -> Ismcts {
    Ismcts::new(Budget {
        playouts: 12,
        ..small_budget()
    })
}

pub fn deal(preset: Preset, players: u8, rng: &mut ChaCha8Rng) -> Game {
    let mut deck: Vec<Card> = Card::all().collect();
    deck.shuffle(rng);
    let dealer = rng.random_range(0..players);
    Game::deal(Ruleset::preset(preset), players, dealer, &deck).expect("deal")
}

/// Resolves an awaited shuffle, if any; true if one was.
pub fn resolve_chance(game: &mut Game, rng: &mut ChaCha8Rng) -> bool {
    let awaited = game.state().awaited_cards();
    if awaited.is_empty() {
        return false;
    }
    let mut order: Vec<Card> = awaited.iter().collect();
    order.shuffle(rng);
    game.apply(&Action::Shuffle(order)).expect("shuffle");
    true
}

/// A seat that may act now, chosen at random among them.
pub fn actor(game: &Game, rng: &mut ChaCha8Rng) -> Option<Seat> {
    let seats: Vec<Seat> = game.to_act().iter().collect();
    seats.choose(rng).copied()
}

/// Plays a whole game, seat s asking `bots[s % len]`, checking every choice
/// is legal; calls `visit` with each view before it is decided. Returns the
/// number of decisions.
pub fn play_out(
    game: &mut Game,
    bots: &mut [Box<dyn Strategy>],
    rng: &mut ChaCha8Rng,
    mut visit: impl FnMut(&Game, Seat, &mut ChaCha8Rng),
) -> usize {
    let mut decisions = 0;
    while game.state().phase() != Phase::Over {
        if resolve_chance(game, rng) {
            continue;
        }
        let seat = actor(game, rng).expect("someone may act");
        visit(game, seat, rng);
        let view = game.view(Some(seat));
        let bot = &mut bots[seat as usize % bots.len()];
        let kind = bot.choose(&view, rng).expect("a choice");
        assert!(
            view.legal.contains(&kind),
            "{} chose {kind:?}, not legal in {:?}",
            bot.name(),
            view.legal
        );
        game.apply(&Move::new(seat, kind).into()).expect("legal");
        decisions += 1;
    }
    decisions
}

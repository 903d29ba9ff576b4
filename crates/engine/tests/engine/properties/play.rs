//! The play loop every property runs in: random games played to their end,
//! with a check at the deal and after every action. Checks that every game
//! ends, and that no chosen legal action is refused.

use rand::Rng;
use rand::seq::{IndexedRandom, SliceRandom};
use rand_chacha::ChaCha8Rng;
use skit_engine::{Action, Card, CardSet, Game, Move, MoveKind, Phase};

use crate::properties::{Setup, Step};

/// No game may need more actions (the default phase-two limit is 2000).
const MAX_ACTIONS: usize = 10_000;

/// A random next action: a random order of the awaited cards, or a random
/// legal move. `None` when nothing can happen.
fn random_action(game: &Game, rng: &mut ChaCha8Rng) -> Option<Action> {
    let awaited = game.state().awaited_cards();
    if !awaited.is_empty() {
        let mut order: Vec<Card> = awaited.iter().collect();
        order.shuffle(rng);
        return Some(Action::Shuffle(order));
    }
    // Uniform choice picks up so often that most games run into the action
    // limit; pick up only now and then when a play is possible.
    let legal = game.legal_moves();
    let plays: Vec<Move> = legal
        .iter()
        .filter(|m| m.kind != MoveKind::Pickup)
        .copied()
        .collect();
    if plays.is_empty() || rng.random_bool(0.15) {
        return legal.choose(rng).map(|&m| Action::Move(m));
    }
    if rng.random_bool(0.5) {
        return plays.choose(rng).map(|&m| Action::Move(m));
    }
    // Half the time play like a person: shed low cards and long runs, keep trumps.
    let trumps = game.state().trump().map_or(CardSet::EMPTY, CardSet::suit);
    let key = |m: &Move| match m.kind {
        MoveKind::Play(cards) => (
            !(cards & trumps).is_empty(),
            cards.lowest().map_or(0, |c| c.rank().value()),
            u32::MAX - cards.len(),
        ),
        _ => (false, 8, u32::MAX),
    };
    plays
        .iter()
        .min_by_key(|m| key(m))
        .map(|&m| Action::Move(m))
}

/// Plays a random game to its end, calling `check` at the deal and after
/// every action. Returns the finished game and its actions.
pub(crate) fn play(
    setup: &Setup,
    rng: &mut ChaCha8Rng,
    check: &mut dyn FnMut(&Step<'_>, &mut ChaCha8Rng),
) -> (Game, Vec<Action>) {
    let mut game = setup.game();
    let mut log = Vec::new();
    check(
        &Step {
            setup,
            game: &game,
            before: None,
            log: &log,
        },
        rng,
    );
    while let Some(action) = random_action(&game, rng) {
        let before = *game.state();
        if let Err(e) = game.apply(&action) {
            let step = Step {
                setup,
                game: &game,
                before: None,
                log: &log,
            };
            panic!(
                "{}\nthe chosen action {} was refused: {e}",
                step.ctx(),
                action.to_json()
            );
        }
        log.push(action);
        let step = Step {
            setup,
            game: &game,
            before: Some(before),
            log: &log,
        };
        check(&step, rng);
        assert!(
            log.len() <= MAX_ACTIONS,
            "{}\nthe game did not end",
            step.ctx()
        );
    }
    let step = Step {
        setup,
        game: &game,
        before: None,
        log: &log,
    };
    assert_eq!(
        game.state().phase(),
        Phase::Over,
        "{}\nno seat can act and no shuffle is awaited, but the game is not over",
        step.ctx()
    );
    (game, log)
}

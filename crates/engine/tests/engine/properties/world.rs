//! A world put on a game the seat cannot tell from the real one
//! (`Game::with_world`), as a client does with a world the service sampled
//! and a game it rebuilt from its own view: the result is the sampled game
//! again for the seat (the same world, view and legal actions) at every
//! checked point of whole games of every ruleset; a world that moves a card
//! the seat can see is refused.

use rand::Rng;
use skit_engine::{CardSet, Game, Seat, World};

use crate::properties::play::play;
use crate::properties::setups;

#[test]
fn a_sample_put_on_a_game_rebuilt_from_the_view_is_that_sample() {
    let mut checked = 0usize;
    let mut unrebuilt = 0usize;
    for (setup, mut rng) in setups(13, 1) {
        play(&setup, &mut rng, &mut |step, rng| {
            if step.log.len() % 5 != 0 {
                return;
            }
            let game = step.game;
            let seat: Seat = rng.random_range(0..step.state().players());
            let view = game.view(Some(seat));
            // A view the engine cannot rebuild from is the rebuild's matter.
            let Some(rebuilt) = view
                .sample_worlds(1, rng.random())
                .ok()
                .and_then(|mut g| g.pop())
            else {
                unrebuilt += 1;
                return;
            };
            let Ok(samples) = game.sample_worlds(Some(seat), 2, rng.random()) else {
                return;
            };
            for sample in samples {
                let ctx = || format!("{}\nseat {seat}", step.ctx());
                let world = sample.world();
                let put = rebuilt
                    .with_world(seat, &world)
                    .unwrap_or_else(|e| panic!("{}: refused: {e}", ctx()));
                assert_eq!(put.world(), world, "{}", ctx());
                assert_eq!(put.view(Some(seat)), view, "{}", ctx());
                assert_eq!(
                    put.legal_moves_for(seat),
                    game.legal_moves_for(seat),
                    "{}",
                    ctx()
                );
                checked += 1;
            }
        });
    }
    assert!(
        checked > 5000,
        "only {checked} worlds put ({unrebuilt} views not rebuilt)"
    );
}

/// A skitgubbe game of three a few tricks in.
fn under_way() -> Game {
    let mut game = None;
    for (setup, mut rng) in setups(14, 1) {
        if setup.label != "skitgubbe" || setup.players != 3 {
            continue;
        }
        play(&setup, &mut rng, &mut |step, _| {
            if step.log.len() == 12 {
                game = Some(step.game.clone());
            }
        });
    }
    game.expect("a skitgubbe game of three")
}

#[test]
fn a_world_moving_a_card_the_seat_sees_is_refused() {
    let game = under_way();
    let world = game.world();
    let own = world.hands[0].first().expect("seat 0 holds cards");
    let other = world.hands[1].first().expect("seat 1 holds cards");
    let mut swapped = world.clone();
    swapped.hands[0] = (swapped.hands[0] - CardSet::single(own)) | CardSet::single(other);
    swapped.hands[1] = (swapped.hands[1] - CardSet::single(other)) | CardSet::single(own);
    let mut short: World = world.clone();
    short.stock.pop();

    let own_hand = game.with_world(0, &swapped);
    let stock = game.with_world(0, &short);
    let no_seat = game.with_world(7, &world);

    let own_hand = own_hand.expect_err("seat 0 knows its own hand");
    assert_eq!(own_hand.seat, 0);
    assert!(own_hand.to_string().contains("seat 0's hand"), "{own_hand}");
    stock.expect_err("seat 0 knows the stock's size");
    no_seat.expect_err("no seat 7 at a table of three");
    assert!(
        game.with_world(0, &world).is_ok(),
        "the true world is a world"
    );
    // For seat 2 the exchange is of two cards it cannot see.
    assert!(game.with_world(2, &swapped).is_ok());
}

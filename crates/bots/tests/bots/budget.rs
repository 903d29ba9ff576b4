//! Every searching bot stops at its budget of CPU time, and the omniscient
//! bot plays whole games legally from the true state.

use std::time::Duration;

use cpu_time::ThreadTime;
use skit_bots::{Budget, Greedy, Ismcts, Omniscient, Search, Strategy};
use skit_engine::{Move, Phase, Preset};

use crate::common;

/// A view of seat 1 with several legal actions, a few moves into a game.
fn position(seed: u64) -> skit_engine::Game {
    let mut rng = common::rng(seed);
    let mut game = common::deal(Preset::Skitgubbe, 3, &mut rng);
    let mut greedy = Greedy;
    loop {
        if common::resolve_chance(&mut game, &mut rng) {
            continue;
        }
        let seat = common::actor(&game, &mut rng).expect("someone may act");
        let view = game.view(Some(seat));
        if seat == 1 && view.legal.len() > 2 && game.history().len() > 6 {
            return game;
        }
        let kind = greedy.choose(&view, &mut rng).expect("a choice");
        game.apply(&Move::new(seat, kind).into()).expect("legal");
    }
}

#[test]
fn searches_stop_when_their_cpu_time_is_spent() {
    // 100 000 playouts would take seconds; 5 ms of CPU time stops them.
    let budget = Budget::with_time(Duration::from_millis(5));
    assert_eq!(budget.playouts, Budget::default().playouts);
    let game = position(3);
    let view = game.view(Some(1));
    let mut rng = common::rng(4);
    let mut bots: Vec<Box<dyn Strategy>> =
        vec![Box::new(Search::new(budget)), Box::new(Ismcts::new(budget))];
    for bot in &mut bots {
        let start = ThreadTime::now();
        let kind = bot.choose(&view, &mut rng).expect("a choice");
        let spent = start.elapsed();
        assert!(view.legal.contains(&kind));
        // One playout or sample may run past the limit, not thousands.
        assert!(
            spent < Duration::from_millis(250),
            "{}: {spent:?}",
            bot.name()
        );
    }
    let start = ThreadTime::now();
    let kind = Omniscient::new(budget)
        .choose(game.rules(), game.state(), 1, &mut rng)
        .expect("a choice");
    assert!(start.elapsed() < Duration::from_millis(250));
    assert!(view.legal.contains(&kind));
}

#[test]
fn the_default_budget_is_twenty_milliseconds_of_cpu_time() {
    assert_eq!(Budget::default().time, Some(Duration::from_millis(20)));
    assert_eq!(skit_bots::DECISION_TIME, Duration::from_millis(20));
}

#[test]
fn the_omniscient_bot_plays_whole_games_legally() {
    let mut rng = common::rng(21);
    for preset in [Preset::Skitgubbe, Preset::Mas, Preset::TwoPlayer] {
        let players = preset.usual_players();
        let mut game = common::deal(preset, players, &mut rng);
        let mut omniscient = Omniscient::new(common::small_budget());
        let mut greedy = Greedy;
        while game.state().phase() != Phase::Over {
            if common::resolve_chance(&mut game, &mut rng) {
                continue;
            }
            let seat = common::actor(&game, &mut rng).expect("someone may act");
            let view = game.view(Some(seat));
            let kind = if seat == 0 {
                omniscient
                    .choose(game.rules(), game.state(), seat, &mut rng)
                    .expect("a choice")
            } else {
                greedy.choose(&view, &mut rng).expect("a choice")
            };
            assert!(view.legal.contains(&kind), "{}: {kind:?}", preset.name());
            game.apply(&Move::new(seat, kind).into()).expect("legal");
        }
    }
}

//! Every strategy plays every preset at every player count to the end,
//! always choosing a legal action.

use crate::common;

use skit_bots::{Greedy, Omniscient, Random, Strategy, by_name};
use skit_engine::{Phase, Preset};

fn table() -> Vec<Box<dyn Strategy>> {
    vec![
        Box::new(Random),
        Box::new(Greedy),
        Box::new(common::small_search()),
        Box::new(common::small_ismcts()),
    ]
}

#[test]
fn every_strategy_finishes_games_of_every_preset_and_player_count() {
    let mut rng = common::rng(11);
    for preset in Preset::ALL {
        let (lo, hi) = preset.players();
        for players in lo..=hi {
            let mut game = common::deal(preset, players, &mut rng);
            let mut bots = table();
            // Rotate so each strategy meets every seat position across counts.
            bots.rotate_left(players as usize % 4);
            let decisions = common::play_out(&mut game, &mut bots, &mut rng, |_, _, _| {});
            assert_eq!(game.state().phase(), Phase::Over, "{}", preset.name());
            assert!(decisions > 0);
        }
    }
}

#[test]
fn greedy_and_random_alone_finish_many_games() {
    let mut rng = common::rng(12);
    for preset in Preset::ALL {
        let (lo, hi) = preset.players();
        for players in [lo, 3.clamp(lo, hi), hi] {
            for names in [["greedy"], ["random"]] {
                let mut bots: Vec<_> = names.iter().filter_map(|n| by_name(n)).collect();
                let mut game = common::deal(preset, players, &mut rng);
                common::play_out(&mut game, &mut bots, &mut rng, |_, _, _| {});
            }
        }
    }
}

#[test]
fn names_resolve_and_empty_views_give_no_choice() {
    for name in skit_bots::NAMES {
        let mut bot = by_name(name).expect("known name");
        assert_eq!(bot.name(), name);
        let mut rng = common::rng(1);
        let game = common::deal(Preset::Skitgubbe, 3, &mut rng);
        assert_eq!(bot.choose(&game.view(None), &mut rng), None);
    }
    assert!(by_name("oracle").is_none());
}

#[test]
fn the_omniscient_bot_is_no_strategy_a_service_can_name() {
    assert!(!skit_bots::NAMES.contains(&Omniscient::NAME));
    assert!(by_name(Omniscient::NAME).is_none());
    assert!(skit_bots::by_name_with(Omniscient::NAME, common::small_budget()).is_none());
}

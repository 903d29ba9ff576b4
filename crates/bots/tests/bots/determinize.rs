//! The engine's sampler as the search bot uses it, from views alone: every
//! sampled state shows the seat exactly what its view shows, over many
//! positions of every preset played by the bots.

use crate::common;

use rand::RngCore;
use skit_bots::{Greedy, Random, Strategy};
use skit_engine::{Game, Seat, State, TableEntry, View};

/// The public facts and the seat's legal actions, as the state gives them.
fn assert_agrees(state: &State, view: &View, game: &Game) {
    let rules = game.rules();
    let seat = view.seat.expect("a seat");
    assert_eq!(state.phase(), view.phase);
    assert_eq!(state.hand(seat), view.hand.expect("a hand"));
    for (s, sv) in view.seats.iter().enumerate() {
        let s = s as Seat;
        assert_eq!(state.hand(s).len(), sv.hand_size, "hand size of seat {s}");
        assert_eq!(state.pile_size(s), sv.pile_size, "pile size of seat {s}");
        assert_eq!(state.is_out(s), sv.out);
    }
    assert_eq!(state.stock_size(), view.stock_size);
    assert_eq!(state.reserve_size(), view.reserve_size);
    assert_eq!(state.trump(), view.trump);
    assert_eq!(state.turned_card(), view.turned_card);
    assert_eq!(state.trump_holder(), view.trump_holder);
    let table: Vec<(Seat, _)> = state.table_groups().collect();
    let shown: Vec<(Seat, _)> = view
        .table
        .iter()
        .map(|e: &TableEntry| (e.seat, e.cards))
        .collect();
    assert_eq!(table, shown);
    assert_eq!(state.out().collect::<Vec<_>>(), view.out);
    assert_eq!(
        state.public_to_act().iter().collect::<Vec<_>>(),
        view.to_act
    );
    assert_eq!(state.leader(), view.leader);
    assert_eq!(state.trick_size(), view.trick_size);
    let legal: Vec<_> = state
        .legal_moves_for(rules, seat)
        .iter()
        .map(|m| m.kind)
        .collect();
    assert_eq!(legal, view.legal);
}

#[test]
fn sampled_states_agree_with_the_view_in_every_preset() {
    let mut rng = common::rng(21);
    let mut report = Vec::new();
    for preset in skit_engine::Preset::ALL {
        let (lo, hi) = preset.players();
        let (mut tried, mut found) = (0u32, 0u32);
        for players in [lo, 3.clamp(lo, hi), 4.clamp(lo, hi)] {
            for game_no in 0..3 {
                let mut game = common::deal(preset, players, &mut rng);
                let mut bots: Vec<Box<dyn Strategy>> = if game_no % 2 == 0 {
                    vec![Box::new(Greedy)]
                } else {
                    vec![Box::new(Random)]
                };
                common::play_out(&mut game, &mut bots, &mut rng, |game, seat, rng| {
                    let view = game.view(Some(seat));
                    tried += 1;
                    let sampled = view.sample_worlds(2, rng.next_u64());
                    if let Ok(worlds) = sampled {
                        found += 1;
                        for world in &worlds {
                            assert_agrees(world.state(), &view, game);
                            assert_eq!(world.view(Some(seat)), view);
                        }
                    }
                });
            }
        }
        report.push(format!("{}: {found}/{tried}", preset.name()));
        // A few failures are allowed (the search then plays greedy), not many.
        assert!(
            found * 100 >= tried * 90,
            "{}: only {found} of {tried} views determinized",
            preset.name()
        );
    }
    println!("{}", report.join("\n"));
}

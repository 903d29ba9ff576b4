//! The public records say what happened: a pickup records exactly the
//! cards that left the table for the picker's hand, even when it ends
//! phase one and the piles go into the hands with them.

use skit_engine::{Action, Move, MoveKind, Record};

use crate::properties::play::play;
use crate::properties::{GAMES, setups};

#[test]
fn a_pickup_records_the_cards_taken_from_the_table() {
    let mut pickups = 0;
    for (setup, mut rng) in setups(9, GAMES) {
        play(&setup, &mut rng, &mut |step, _| {
            let (Some(before), Some(Action::Move(Move { seat, kind }))) =
                (step.before, step.log.last())
            else {
                return;
            };
            if *kind != MoveKind::Pickup {
                return;
            }
            pickups += 1;
            let taken = before.table_set() - step.state().table_set();
            let recorded = step.game.history().iter().rev().find_map(|r| match r {
                Record::Pickup { seat: s, cards } if s == seat => Some(*cards),
                _ => None,
            });
            assert_eq!(
                recorded,
                Some(taken & step.state().hand(*seat)),
                "{}",
                step.ctx()
            );
        });
    }
    assert!(pickups > 0, "no game picked up");
}

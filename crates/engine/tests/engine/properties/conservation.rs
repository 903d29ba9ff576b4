//! The 52 cards are each in exactly one place: the check run after every
//! action (and after every listed move) by the legality tests, and after
//! every accepted malformed action.

use skit_engine::{CardSet, State};

use crate::properties::Step;

const PLACES: [&str; 6] = [
    "hands",
    "piles",
    "stock and reserve",
    "table",
    "face-down trump card",
    "out of play",
];

/// Every card is in exactly one place, and in at most one hand.
pub(crate) fn conservation(state: &State) -> Result<(), String> {
    let places = state.cards_everywhere();
    let mut seen = CardSet::EMPTY;
    for (name, &set) in PLACES.iter().zip(&places) {
        if !(seen & set).is_empty() {
            return Err(format!("{:?} in the {name} and also elsewhere", seen & set));
        }
        seen |= set;
    }
    if seen != CardSet::FULL {
        return Err(format!("{:?} are nowhere", CardSet::FULL - seen));
    }
    let mut held = CardSet::EMPTY;
    for seat in 0..8 {
        let hand = state.hand(seat);
        if !(held & hand).is_empty() {
            return Err(format!("{:?} in two hands", held & hand));
        }
        if seat >= state.players() && !hand.is_empty() {
            return Err(format!("seat {seat} is not playing but holds {hand:?}"));
        }
        held |= hand;
    }
    if held != places[0] {
        return Err(format!(
            "hands {held:?} but cards_everywhere says {:?}",
            places[0]
        ));
    }
    Ok(())
}

pub(crate) fn assert_conserved(step: &Step<'_>) {
    if let Err(e) = conservation(step.game.state()) {
        panic!("{}\ncards not conserved: {e}", step.ctx());
    }
}

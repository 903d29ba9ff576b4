//! Known cards (rules.md 1.5), read from each seat's own view: every card a
//! seat's view lists as known for another seat is in that seat's hand; every
//! card seen picked up, or seen joining a hand from a pile or as the trump
//! card, is listed until it leaves the hand; a seat's own list is empty; and
//! every viewer lists the same cards for a seat.

use skit_engine::{Action, Awaiting, CardSet, Phase, Record, Seat, View};

use crate::properties::play::play;
use crate::properties::{Step, setups};

/// Every viewer's view: the seats, then a spectator (`None`).
fn views(step: &Step<'_>) -> Vec<(Option<Seat>, View)> {
    let n = step.state().players();
    (0..n)
        .map(Some)
        .chain([None])
        .map(|v| (v, step.game.view_since(v, usize::MAX)))
        .collect()
}

/// Cards that went into a hand in everyone's sight at this step, seat by
/// seat, worked out from the states and the records, not from the tracker.
fn seen_entering(step: &Step<'_>, new: &[Record], split: CardSet) -> Vec<CardSet> {
    let after = step.state();
    let n = after.players() as usize;
    let mut seen = vec![CardSet::EMPTY; n];
    let (Some(before), Some(action)) = (step.before, step.log.last()) else {
        return seen;
    };
    for record in new {
        match record {
            Record::Pickup { seat, cards } => seen[*seat as usize] |= *cards & after.hand(*seat),
            // Played, then back in the hand (a trick taken back at the end
            // of phase one): seen going back.
            Record::Play { seat, cards } => seen[*seat as usize] |= *cards & after.hand(*seat),
            _ => {}
        }
    }
    if before.phase() == Phase::One && after.phase() != Phase::One {
        // Piles and taken-back cards join the hands in sight; cards drawn from
        // the stock and cards dealt by a chance outcome do not.
        let drawn = before.cards_everywhere()[2]
            - before.turned_card().map_or(CardSet::EMPTY, CardSet::single);
        let dealt: CardSet = match action {
            Action::Shuffle(order) => order.iter().copied().collect(),
            Action::Move(_) => CardSet::EMPTY,
        };
        for (seat, cards) in seen.iter_mut().enumerate() {
            let seat = seat as Seat;
            *cards |= (after.hand(seat) - before.hand(seat)) - drawn - dealt - split;
        }
    }
    seen
}

#[test]
fn each_seats_view_lists_the_cards_it_saw_enter_other_hands() {
    let mut listed = 0usize;
    for (setup, mut rng) in setups(9, 1) {
        let mut expected: Vec<CardSet> = Vec::new();
        let mut split = CardSet::EMPTY;
        let mut records = 0;
        play(&setup, &mut rng, &mut |step, _| {
            let state = step.state();
            let n = state.players() as usize;
            expected.resize(n, CardSet::EMPTY);
            if let Some(before) = step.before.filter(|b| b.awaiting() == Awaiting::Split) {
                split |= before.table_set();
            }
            let history = step.game.history();
            let new = &history[records.min(history.len())..];
            records = history.len();
            for (seat, cards) in seen_entering(step, new, split).into_iter().enumerate() {
                expected[seat] = (expected[seat] | cards) & state.hand(seat as Seat);
            }
            let views = views(step);
            for (viewer, view) in &views {
                for (seat, sv) in view.seats.iter().enumerate() {
                    let seat = seat as Seat;
                    if *viewer == Some(seat) {
                        assert!(
                            sv.known_cards.is_empty(),
                            "{}\nseat {seat}'s view lists its own known cards",
                            step.ctx()
                        );
                        continue;
                    }
                    let truth = state.hand(seat);
                    assert!(
                        sv.known_cards.is_subset(truth),
                        "{}\nthe view of {viewer:?} lists {:?} as known in seat {seat}'s hand {truth:?}",
                        step.ctx(),
                        sv.known_cards
                    );
                    let missing = expected[seat as usize] - sv.known_cards;
                    assert!(
                        missing.is_empty(),
                        "{}\nthe view of {viewer:?} misses {missing:?}, seen entering seat {seat}'s hand",
                        step.ctx()
                    );
                    let spectator = &views[n].1.seats[seat as usize].known_cards;
                    assert_eq!(
                        &sv.known_cards,
                        spectator,
                        "{}\n{viewer:?} and a spectator list different known cards for seat {seat}",
                        step.ctx()
                    );
                    listed += sv.known_cards.len() as usize;
                }
            }
        });
    }
    assert!(listed > 10_000, "only {listed} known cards listed in all");
}

/// The trump card, turned face up between the phases, is known in its
/// holder's hand until the holder plays it.
#[test]
fn the_turned_trump_card_is_known_in_its_holders_hand() {
    let mut checked = 0usize;
    for (setup, mut rng) in setups(10, 1) {
        play(&setup, &mut rng, &mut |step, _| {
            let state = step.state();
            let (Some(card), Some(holder), Phase::Two) =
                (state.trump_card(), state.trump_holder(), state.phase())
            else {
                return;
            };
            if !state.hand(holder).contains(card) {
                return;
            }
            let other = (holder + 1) % state.players();
            let view = step.game.view(Some(other));
            assert!(
                view.seats[holder as usize].known_cards.contains(card),
                "{}\nseat {other} does not list the trump card {card} in holder {holder}'s hand",
                step.ctx()
            );
            checked += 1;
        });
    }
    assert!(checked > 100, "only {checked} positions checked");
}

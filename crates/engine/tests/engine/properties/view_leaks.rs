//! A seat's view, and the public history, never mention cards it cannot
//! see.

use rand::Rng;
use skit_engine::{Action, Card, CardSet, MoveKind, Rank, Suit};

use crate::properties::play::play;
use crate::properties::view_dependence::view_json_but_history;
use crate::properties::{Step, setups};

/// Every card written as a JSON string in `json` (`"TS"`).
fn cards_mentioned(json: &str) -> CardSet {
    let bytes = json.as_bytes();
    let mut cards = CardSet::EMPTY;
    let mut i = 0;
    while i + 3 < bytes.len() {
        if bytes[i] == b'"' && bytes[i + 3] == b'"' {
            let rank = Rank::from_letter(char::from(bytes[i + 1]));
            let suit = Suit::from_letter(char::from(bytes[i + 2]));
            if let (Some(rank), Some(suit)) = (rank, suit) {
                cards.insert(Card::new(rank, suit));
            }
        }
        i += 1;
    }
    cards
}

/// Cards everyone has seen: updated from the state change of each action,
/// independently of the history and the views.
fn update_shown(shown: &mut CardSet, step: &Step<'_>) {
    let after = step.state();
    *shown |= after.table_set() | after.awaited_cards();
    if let Some(card) = after.turned_card() {
        shown.insert(card);
    }
    let (Some(before), Some(action)) = (step.before, step.log.last()) else {
        return;
    };
    if let Some(card) = before.turned_card() {
        shown.insert(card);
    }
    // The trump card is turned face up between the phases (drawn face down
    // earlier, or in the very action that ends phase one).
    *shown |= before.cards_everywhere()[4] - after.cards_everywhere()[4];
    if before.trump().is_none()
        && let Some(card) = after.trump_card()
    {
        shown.insert(card);
    }
    match action {
        Action::Shuffle(order) => *shown |= order.iter().copied().collect::<CardSet>(),
        Action::Move(mv) => {
            if let MoveKind::Play(cards) | MoveKind::Sluff(cards) = mv.kind {
                *shown |= cards;
            }
            if mv.kind == MoveKind::Chance {
                // The stock's top card, turned up.
                *shown |= before.cards_everywhere()[2] - after.cards_everywhere()[2];
            }
            // Cards leaving a hand other than by a play (banked, robbed)
            // are shown too.
            *shown |= before.hand(mv.seat) - after.hand(mv.seat);
        }
    }
}

#[test]
fn views_never_mention_cards_the_seat_cannot_see() {
    let mut checked = 0usize;
    // One game per ruleset and player count: serializing views after every
    // action is the slowest check here.
    for (setup, mut rng) in setups(6, 1) {
        let mut shown = CardSet::EMPTY;
        let mut history_checked = 0;
        let rules_cards = cards_mentioned(&setup.rules.to_json().to_string());
        play(&setup, &mut rng, &mut |step, rng| {
            update_shown(&mut shown, step);
            // The history is the same in every view: its new records must
            // name only cards everyone has seen.
            let history = step.game.history();
            let new = serde_json::to_string(&history[history_checked..]).expect("serializes");
            let leaked = cards_mentioned(&new) & (CardSet::FULL - shown);
            assert!(
                leaked.is_empty(),
                "{}\nthe public history mentions {leaked:?}, which not everyone has seen: {new}",
                step.ctx()
            );
            history_checked = history.len();
            let state = step.state();
            let n = state.players();
            // A spectator and one seat, a different one at random each time.
            for viewer in [None, Some(rng.random_range(0..n))] {
                let own = viewer.map_or(CardSet::EMPTY, |s| state.hand(s));
                // The ruleset may name cards (low-card extras); it is public.
                let hidden = CardSet::FULL - shown - own - rules_cards;
                let view = view_json_but_history(step.game, viewer);
                let leaked = cards_mentioned(&view) & hidden;
                assert!(
                    leaked.is_empty(),
                    "{}\nthe view of seat {viewer:?} mentions {leaked:?}, which it cannot see \
                     (shown so far: {shown:?})\nview {view}",
                    step.ctx()
                );
                checked += 1;
            }
        });
    }
    assert!(checked > 1000, "only {checked} views checked");
}

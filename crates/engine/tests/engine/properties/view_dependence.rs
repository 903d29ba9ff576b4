//! A seat's view does not depend on cards it cannot see: swapping or
//! reshuffling hidden cards in the deck leaves its view (and the public
//! history) unchanged.

use rand::Rng;
use rand::seq::{IndexedRandom, SliceRandom};
use skit_engine::rules::Phase1Mode;
use skit_engine::{Card, Game, Seat, State};

use crate::properties::play::play;
use crate::properties::{GAMES, setups};

/// Where a card is, as far as whether a seat can see it goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Loc {
    Hand(Seat),
    /// The stock or the reserve, face down (not the turned-up card).
    Drawpile,
    FaceDownTrump,
    /// On the table, in a pile, out of play or face up under the stock.
    Elsewhere,
}

fn loc(state: &State, card: Card) -> Loc {
    let places = state.cards_everywhere();
    if places[2].contains(card) && state.turned_card() != Some(card) {
        Loc::Drawpile
    } else if places[4].contains(card) {
        Loc::FaceDownTrump
    } else if let Some(seat) = (0..state.players()).find(|&s| state.hand(s).contains(card)) {
        Loc::Hand(seat)
    } else {
        Loc::Elsewhere
    }
}

fn hidden_from(loc: Loc, seat: Seat) -> bool {
    match loc {
        Loc::Hand(holder) => holder != seat,
        Loc::Drawpile | Loc::FaceDownTrump => true,
        Loc::Elsewhere => false,
    }
}

fn view_json(game: &Game, seat: Option<Seat>) -> String {
    serde_json::to_string(&game.view(seat)).expect("a view serializes")
}

/// A view serialized without its history (which grows with every action, so
/// serializing it whole after every action is quadratic), after checking
/// that the history it holds is the game's.
pub(crate) fn view_json_but_history(game: &Game, seat: Option<Seat>) -> String {
    let mut view = game.view(seat);
    assert!(
        view.history == game.history(),
        "the view's history is not the game's"
    );
    view.history.clear();
    serde_json::to_string(&view).expect("a view serializes")
}

#[test]
fn views_at_the_deal_depend_only_on_the_seats_own_cards() {
    for (setup, mut rng) in setups(4, GAMES) {
        let n = setup.players as usize;
        let seat = rng.random_range(0..setup.players);
        let reserve = setup.rules.options.reserve as usize;
        // Keep the seat's three cards (and a turned-up trump) where they are;
        // shuffle every other card.
        let mut fixed: Vec<usize> = (0..3 * n)
            .filter(|i| (setup.dealer as usize + 1 + i) % n == seat as usize)
            .map(|i| reserve + i)
            .collect();
        if setup.rules.options.mode == Phase1Mode::TurnedTrump {
            fixed.push(reserve + 3 * n);
        }
        let free: Vec<usize> = (0..52).filter(|i| !fixed.contains(i)).collect();
        let mut cards: Vec<Card> = free.iter().map(|&i| setup.deck[i]).collect();
        cards.shuffle(&mut rng);
        let mut other = setup.clone();
        for (&i, &c) in free.iter().zip(&cards) {
            other.deck[i] = c;
        }
        let (a, b) = (setup.game(), other.game());
        assert_eq!(
            a.state().hand(seat),
            b.state().hand(seat),
            "{setup}\nthe test's own deal arithmetic is wrong"
        );
        for viewer in [Some(seat), None] {
            assert_eq!(
                view_json(&a, viewer),
                view_json(&b, viewer),
                "{setup}\nand the same deal with the other cards reshuffled:\n{other}\n\
                 give seat {viewer:?} different views at the deal"
            );
        }
    }
}

#[test]
fn views_do_not_depend_on_cards_the_seat_cannot_see() {
    let mut compared_different_states = 0usize;
    for (setup, mut rng) in setups(5, GAMES + 1) {
        let start = setup.game();
        let seat = rng.random_range(0..setup.players);
        // Two deck positions whose cards the seat cannot see, preferably in
        // different places (two other hands, or a hand and the stock).
        let hidden: Vec<usize> = (0..52)
            .filter(|&i| hidden_from(loc(start.state(), setup.deck[i]), seat))
            .collect();
        let mut pick = || {
            let i = *hidden
                .choose(&mut rng)
                .expect("cards are hidden at the deal");
            let mut j = i;
            for _ in 0..50 {
                j = *hidden
                    .choose(&mut rng)
                    .expect("cards are hidden at the deal");
                let (a, b) = (setup.deck[i], setup.deck[j]);
                if loc(start.state(), a) != loc(start.state(), b) {
                    break;
                }
            }
            (i, j)
        };
        let (i, j) = pick();
        if i == j {
            continue;
        }
        let (x, y) = (setup.deck[i], setup.deck[j]);
        let (loc_x, loc_y) = (loc(start.state(), x), loc(start.state(), y));
        let mut other = setup.clone();
        other.deck.swap(i, j);
        let mut b = other.game();
        let mut comparing = true;
        let mut history_checked = 0;
        play(&setup, &mut rng, &mut |step, _| {
            if !comparing {
                return;
            }
            let a = step.game;
            if step.before.is_some() {
                let action = step.log.last().expect("an action was played");
                if b.apply(action).is_err() {
                    // Legal for the other holder in one deal but not the
                    // other (the hands differ): stop comparing.
                    comparing = false;
                    return;
                }
            }
            if loc(a.state(), x) != loc_x || loc(a.state(), y) != loc_y {
                comparing = false;
                return;
            }
            if a.state() != b.state() {
                compared_different_states += 1;
            }
            // Whole views now and then; the rest of the time the views
            // without the history, and the histories (append-only) compared
            // record by record from where the last step left off.
            let whole = step.log.len() % 32 == 0;
            for viewer in [Some(seat), None] {
                let (va, vb) = if whole {
                    (view_json(a, viewer), view_json(&b, viewer))
                } else {
                    (
                        view_json_but_history(a, viewer),
                        view_json_but_history(&b, viewer),
                    )
                };
                assert!(
                    va == vb,
                    "{}\nwith {x} and {y} swapped in the deck (deck positions {i} and {j}), \
                     both still unseen by seat {seat}, the view of {viewer:?} differs:\n{va}\n{vb}",
                    step.ctx()
                );
            }
            let (ha, hb) = (a.history(), b.history());
            let from = history_checked.min(ha.len());
            let (ja, jb) = (
                serde_json::to_string(&ha[from..]).expect("serializes"),
                serde_json::to_string(&hb[from.min(hb.len())..]).expect("serializes"),
            );
            assert!(
                ja == jb,
                "{}\nwith {x} and {y} swapped in the deck, the public history differs:\n{ja}\n{jb}",
                step.ctx()
            );
            history_checked = ha.len();
        });
    }
    assert!(
        compared_different_states > 100,
        "only {compared_different_states} comparisons of different states"
    );
}

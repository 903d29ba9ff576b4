//! The observation tensor: one seat's view as a fixed-length vector of
//! floats in [0, 1], built only from that seat's [`View`] (and the cards out
//! of play, which everyone saw played), so it holds nothing the seat cannot
//! see. Seats are relative: block 0 is the observer, block i the seat i
//! places to its left. Counts are divided by 52. Layout (docs/python.md):
//!
//! | offset | length | what |
//! |---|---|---|
//! | 0 | 52 | own hand (a card's place is `(rank - 2) * 4 + suit`, suits C D H S) |
//! | 52 | 7 × 52 | known cards of the seats 1 to 7 places to the left |
//! | 416 | 52 | every card on the table |
//! | 468 | 52 | the lay or play to beat (the table's newest) |
//! | 520 | 52 | the turned-up card under the stock (`mas`, `melniki`) |
//! | 572 | 52 | cards out of play |
//! | 624 | 4 | trumps, one-hot |
//! | 628 | 3 | phase one, two, over |
//! | 631 | 8 × 4 | per relative seat: hand size, pile size, out, to act |
//! | 663 | 8 | the leader, one-hot by relative seat |
//! | 671 | 8 | the trump holder, one-hot by relative seat |
//! | 679 | 2 | stock size, reserve size |

use skit_engine::{CardSet, Game, Phase, Seat};

pub const OBSERVATION_SIZE: usize = 681;

fn cards(out: &mut [f32], at: usize, set: CardSet) {
    for card in set {
        out[at + usize::from(card.sort_key())] = 1.0;
    }
}

/// Writes `seat`'s observation into `out` (length [`OBSERVATION_SIZE`]).
pub fn observe(game: &Game, seat: Seat, out: &mut [f32]) {
    out.fill(0.0);
    let view = game.view_since(Some(seat), usize::MAX);
    let n = view.players;
    let rel = |s: Seat| usize::from((s + n - seat) % n);
    cards(out, 0, view.hand.unwrap_or(CardSet::EMPTY));
    for (s, sv) in view.seats.iter().enumerate() {
        let r = rel(s as Seat);
        if r > 0 {
            cards(out, 52 * r, sv.known_cards);
        }
        let base = 631 + 4 * r;
        out[base] = sv.hand_size as f32 / 52.0;
        out[base + 1] = sv.pile_size as f32 / 52.0;
        out[base + 2] = f32::from(u8::from(sv.out));
    }
    for &s in &view.to_act {
        out[631 + 4 * rel(s) + 3] = 1.0;
    }
    let table = view.table.iter().fold(CardSet::EMPTY, |a, e| a | e.cards);
    cards(out, 416, table);
    if let Some(top) = view.table.last() {
        cards(out, 468, top.cards);
    }
    if let Some(card) = view.turned_card {
        cards(out, 520, CardSet::single(card));
    }
    cards(out, 572, game.state().cards_everywhere()[5]);
    if let Some(trump) = view.trump {
        out[624 + usize::from(trump.index())] = 1.0;
    }
    out[628
        + match view.phase {
            Phase::One => 0,
            Phase::Two => 1,
            Phase::Over => 2,
        }] = 1.0;
    if let Some(leader) = view.leader {
        out[663 + rel(leader)] = 1.0;
    }
    if let Some(holder) = view.trump_holder {
        out[671 + rel(holder)] = 1.0;
    }
    out[679] = view.stock_size as f32 / 52.0;
    out[680] = view.reserve_size as f32 / 52.0;
}

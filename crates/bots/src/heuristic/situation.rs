//! What the heuristic knows when a seat decides: public facts and that
//! seat's hand, read off its view or off a sampled state.

use arrayvec::ArrayVec;
use skit_engine::rules::Options;
use skit_engine::{Card, CardSet, Phase, Seat, State, Suit, View};

/// One play, sluff (phase one) or lay (phase two) on the table.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    pub seat: Seat,
    pub cards: CardSet,
    pub sluff: bool,
}

/// What the heuristic knows when `seat` decides.
#[derive(Clone, Debug)]
pub(crate) struct Situation {
    pub options: Options,
    pub phase: Phase,
    pub seat: Seat,
    pub players: u8,
    pub hand: CardSet,
    pub trump: Option<Suit>,
    pub table: ArrayVec<Entry, 52>,
    /// Cards neither in the hand nor on the table: what a chance may turn up.
    pub unseen: CardSet,
}

impl Situation {
    /// The seat's situation as its view shows it; `None` for a spectator.
    pub fn from_view(view: &View) -> Option<Situation> {
        let seat = view.seat?;
        let hand = view.hand?;
        let table: ArrayVec<Entry, 52> = view
            .table
            .iter()
            .map(|e| Entry {
                seat: e.seat,
                cards: e.cards,
                sluff: e.sluff,
            })
            .collect();
        let on_table = table.iter().fold(CardSet::EMPTY, |a, e| a | e.cards);
        Some(Situation {
            options: view.rules.options,
            phase: view.phase,
            seat,
            players: view.players,
            hand,
            trump: view.trump,
            table,
            unseen: CardSet::FULL - hand - on_table,
        })
    }

    /// `seat`'s situation in a (sampled) state, reading only what its view
    /// would show.
    pub fn from_state(options: Options, state: &State, seat: Seat) -> Situation {
        let hand = state.hand(seat);
        let mut table = ArrayVec::new();
        let phase = state.phase();
        for (owner, cards) in state.table_groups() {
            let sluff = phase == Phase::One
                && cards
                    .first()
                    .is_some_and(|c| state.table_cards().any(|(_, t, f)| t == c && f));
            table.push(Entry {
                seat: owner,
                cards,
                sluff,
            });
        }
        Situation {
            options,
            phase,
            seat,
            players: state.players(),
            hand,
            trump: state.trump(),
            table,
            unseen: CardSet::FULL - hand - state.table_set(),
        }
    }

    pub fn is_trump(&self, card: Card) -> bool {
        Some(card.suit()) == self.trump
    }
}

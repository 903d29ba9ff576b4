//! What one seat may see (SPEC 6): everything public, its own hand and legal
//! actions, and the public history. Built only from public facts and the
//! seat's own cards, so two states that differ in what the seat cannot see
//! give it identical views.

use serde::{Deserialize, Serialize};

use crate::state::{Awaiting, Phase};
use crate::{Card, CardSet, Game, MoveKind, Record, Ruleset, Seat, Suit};

/// Public facts about one seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatView {
    pub hand_size: u32,
    pub pile_size: u32,
    pub out: bool,
    /// Cards the viewer has seen enter this seat's hand and not seen leave
    /// it (rules.md 1.5); always empty for the viewer's own seat.
    #[serde(default)]
    pub known_cards: CardSet,
}

/// One play or sluff (phase one) or one lay (phase two) on the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableEntry {
    pub seat: Seat,
    pub cards: CardSet,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub sluff: bool,
}

/// A seat's view of the game, or a spectator's (no seat, no hand).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    pub rules: Ruleset,
    pub players: u8,
    pub dealer: Seat,
    pub phase: Phase,
    pub awaiting_shuffle: bool,
    /// The viewer's seat; `None` for a spectator.
    pub seat: Option<Seat>,
    /// Whose turn it is, publicly (never who merely could sluff, rob or bank).
    pub to_act: Vec<Seat>,
    pub hand: Option<CardSet>,
    /// The viewer's legal actions.
    pub legal: Vec<MoveKind>,
    pub seats: Vec<SeatView>,
    pub stock_size: u32,
    pub reserve_size: u32,
    pub trump: Option<Suit>,
    /// The turned-up card under the stock (`mas`, `melniki`).
    pub turned_card: Option<Card>,
    pub trump_holder: Option<Seat>,
    pub table: Vec<TableEntry>,
    pub trick_size: Option<u8>,
    pub leader: Option<Seat>,
    pub out: Vec<Seat>,
    pub loser: Option<Seat>,
    pub drawn: bool,
    pub history: Vec<Record>,
}

impl Game {
    /// `seat`'s view; `None` gives a spectator's view.
    pub fn view(&self, seat: Option<Seat>) -> View {
        self.view_since(seat, 0)
    }

    /// `seat`'s view with only the history from record `first` on (all of
    /// it for 0, none past the end), so a view late in a long game costs
    /// what an early one does when the caller has the rest.
    pub fn view_since(&self, seat: Option<Seat>, first: usize) -> View {
        let s = self.state();
        let seat = seat.filter(|&seat| seat < s.players());
        View {
            rules: *self.rules(),
            players: s.players(),
            dealer: s.dealer(),
            phase: s.phase(),
            awaiting_shuffle: s.awaiting() != Awaiting::Nothing,
            seat,
            to_act: s.public_to_act().iter().collect(),
            hand: seat.map(|seat| s.hand(seat)),
            legal: seat
                .map(|seat| self.legal_moves_for(seat).iter().map(|m| m.kind).collect())
                .unwrap_or_default(),
            seats: (0..s.players())
                .map(|p| SeatView {
                    hand_size: s.hand(p).len(),
                    pile_size: s.pile_size(p),
                    out: s.is_out(p),
                    known_cards: if seat == Some(p) {
                        CardSet::EMPTY
                    } else {
                        self.known_cards(p)
                    },
                })
                .collect(),
            stock_size: s.stock_size(),
            reserve_size: s.reserve_size(),
            trump: s.trump(),
            turned_card: s.turned_card(),
            trump_holder: s.trump_holder(),
            table: s
                .table_groups()
                .map(|(seat, cards)| TableEntry {
                    seat,
                    cards,
                    sluff: s.phase() == Phase::One
                        && cards
                            .first()
                            .is_some_and(|c| s.table_cards().any(|(_, t, f)| t == c && f)),
                })
                .collect(),
            trick_size: s.trick_size(),
            leader: s.leader(),
            out: s.out().collect(),
            loser: s.loser(),
            drawn: s.drawn(),
            history: self.history().get(first..).unwrap_or_default().to_vec(),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{Card, Game, Preset, Ruleset};

    /// A view from record `first` on is the whole view with its history cut
    /// there; past the end, it has no history and nothing else changes.
    #[test]
    fn a_view_since_a_record_is_the_view_with_its_history_cut_there() {
        let deck: Vec<Card> = Card::all().collect();
        let mut game =
            Game::deal(Ruleset::preset(Preset::Skitgubbe), 3, 0, &deck).expect("a full deck deals");
        for _ in 0..40 {
            let mv = game.legal_moves().first().copied();
            let mv = mv.expect("40 actions in, the game runs");
            game.apply(&mv.into()).expect("a listed action is accepted");
        }
        let whole = game.view(Some(1));
        assert!(whole.history.len() >= 40);
        for first in [0, 1, 25, whole.history.len(), whole.history.len() + 7] {
            let since = game.view_since(Some(1), first);
            let mut expected = whole.clone();
            expected.history = whole.history.get(first..).unwrap_or_default().to_vec();
            assert_eq!(since, expected, "from record {first}");
        }
    }
}

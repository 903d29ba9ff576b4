//! A game with its ruleset and public history: the convenient, allocating
//! wrapper around the `Copy` [`State`] for services and tools.

use serde::{Deserialize, Serialize};

use crate::known::{Known, revealed_void};
use crate::state::{Phase, Position, SetupError, State};
use crate::{
    Action, Card, CardSet, Move, MoveError, MoveKind, MoveList, Ruleset, Seat, SeatSet, Suit,
};

/// One entry of the public history: what every seat saw happen.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Record {
    /// The deal: who dealt, and the card turned up under the stock (`mas`).
    Deal {
        dealer: Seat,
        turned: Option<Card>,
    },
    Play {
        seat: Seat,
        cards: CardSet,
    },
    /// Chance: the stock's top card, turned up and played.
    Chance {
        seat: Seat,
        card: Card,
    },
    Pickup {
        seat: Seat,
        cards: CardSet,
    },
    Sluff {
        seat: Seat,
        cards: CardSet,
    },
    Pass {
        seat: Seat,
    },
    Claim {
        seat: Seat,
    },
    /// The two of trumps went under the stock; the turned-up card to the robber.
    Rob {
        seat: Seat,
        card: Card,
    },
    Bank {
        seat: Seat,
        cards: CardSet,
    },
    /// A chance outcome; public only as the set of cards shuffled.
    Shuffle {
        cards: CardSet,
    },
    /// Phase two began: trumps and the trump holder.
    PhaseTwo {
        trump: Option<Suit>,
        trump_holder: Option<Seat>,
    },
    /// The game ended.
    End {
        loser: Option<Seat>,
        drawn: bool,
    },
}

impl Record {
    /// The cards this record shows face up.
    pub fn cards(&self) -> CardSet {
        match *self {
            Record::Play { cards, .. }
            | Record::Pickup { cards, .. }
            | Record::Sluff { cards, .. }
            | Record::Bank { cards, .. }
            | Record::Shuffle { cards } => cards,
            Record::Chance { card, .. } | Record::Rob { card, .. } => CardSet::single(card),
            Record::Deal { turned, .. } => turned.map_or(CardSet::EMPTY, CardSet::single),
            Record::Pass { .. }
            | Record::Claim { .. }
            | Record::PhaseTwo { .. }
            | Record::End { .. } => CardSet::EMPTY,
        }
    }
}

/// A game: ruleset, state and public history.
#[derive(Clone, Debug)]
pub struct Game {
    rules: Ruleset,
    pub(crate) state: State,
    history: Vec<Record>,
    known: Known,
}

impl Game {
    /// Deals a new game (SPEC 2).
    pub fn deal(
        rules: Ruleset,
        players: u8,
        dealer: Seat,
        deck: &[Card],
    ) -> Result<Game, SetupError> {
        let state = State::deal(&rules, players, dealer, deck)?;
        Ok(Game::starting(rules, state))
    }

    /// A game from a phase-two position (SPEC 3.5).
    pub fn from_position(
        rules: Ruleset,
        players: u8,
        dealer: Seat,
        position: &Position,
    ) -> Result<Game, SetupError> {
        let state = State::from_position(&rules, players, dealer, position)?;
        Ok(Game::starting(rules, state))
    }

    /// A game from its parts, for a game rebuilt from a view.
    pub(crate) fn assemble(
        rules: Ruleset,
        state: State,
        history: Vec<Record>,
        known: Known,
    ) -> Game {
        Game {
            rules,
            state,
            history,
            known,
        }
    }

    fn starting(rules: Ruleset, state: State) -> Game {
        let mut game = Game {
            rules,
            state,
            history: Vec::new(),
            known: Known::new(&state),
        };
        if state.phase() == Phase::Over {
            game.history.push(Record::End {
                loser: state.loser(),
                drawn: state.drawn(),
            });
        }
        game
    }

    pub fn rules(&self) -> &Ruleset {
        &self.rules
    }

    pub fn state(&self) -> &State {
        &self.state
    }

    pub fn history(&self) -> &[Record] {
        &self.history
    }

    /// Cards every seat has seen enter `seat`'s hand and not seen leave it
    /// (rules.md 1.5): cards picked up from the table, a phase-one pile of
    /// tricks taken in sight of all, the trump card turned face up.
    pub fn known_cards(&self, seat: Seat) -> CardSet {
        if seat < self.state.players() {
            self.known.hand(seat)
        } else {
            CardSet::EMPTY
        }
    }

    pub(crate) fn known(&self) -> &Known {
        &self.known
    }

    pub fn legal_moves(&self) -> MoveList {
        self.state.legal_moves(&self.rules)
    }

    pub fn legal_moves_for(&self, seat: Seat) -> MoveList {
        self.state.legal_moves_for(&self.rules, seat)
    }

    pub fn to_act(&self) -> SeatSet {
        self.state.to_act(&self.rules)
    }

    /// Applies an action and records what everyone saw.
    pub fn apply(&mut self, action: &Action) -> Result<(), MoveError> {
        let before = self.state;
        self.state.apply(&self.rules, action)?;
        if let Action::Move(mv) = action {
            let void = revealed_void(&self.rules, &before, *mv);
            self.known.reveal_void(mv.seat, void);
        }
        let after = &self.state;
        let record = match action {
            Action::Shuffle(order) => Some(Record::Shuffle {
                cards: order.iter().copied().collect(),
            }),
            Action::Move(Move { seat, kind }) => {
                let seat = *seat;
                match *kind {
                    MoveKind::Play(cards) => Some(Record::Play { seat, cards }),
                    MoveKind::Sluff(cards) => Some(Record::Sluff { seat, cards }),
                    MoveKind::Chance => {
                        before.stock_top().map(|card| Record::Chance { seat, card })
                    }
                    MoveKind::Pickup => {
                        // What left the table for the hand: a pickup that
                        // ends phase one (mas) also brings the piles in.
                        let cards = (after.hand(seat) - before.hand(seat)) & before.table_set();
                        Some(Record::Pickup { seat, cards })
                    }
                    MoveKind::Pass => Some(Record::Pass { seat }),
                    MoveKind::Claim => Some(Record::Claim { seat }),
                    MoveKind::Rob => before.stock_bottom().map(|card| Record::Rob { seat, card }),
                    MoveKind::Bank => {
                        let cards = before.hand(seat)
                            & CardSet::suit(before.trump().unwrap_or(Suit::Clubs));
                        Some(Record::Bank { seat, cards })
                    }
                }
            }
        };
        self.known.update(
            &before,
            after,
            action,
            record.as_ref().map_or(CardSet::EMPTY, Record::cards),
        );
        self.history.extend(record);
        if before.phase() == Phase::One && after.phase() != Phase::One && after.trump().is_some() {
            self.history.push(Record::PhaseTwo {
                trump: after.trump(),
                trump_holder: after.trump_holder(),
            });
        }
        if after.phase() == Phase::Over {
            self.history.push(Record::End {
                loser: after.loser(),
                drawn: after.drawn(),
            });
        }
        Ok(())
    }
}

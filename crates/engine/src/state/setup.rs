//! The only ways to a [`State`]: a deal (SPEC 2) or a phase-two position
//! (SPEC 3.5), each validated up front.

use super::{Awaiting, NONE, Owners, Phase, Piles, State, Table};
use crate::rules::{Phase1Mode, RulesError, Ruleset};
use crate::{Card, CardSet, MAX_SEATS, Seat, SeatSet, Suit};

/// Why a game could not be set up.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    #[error(transparent)]
    Rules(#[from] RulesError),
    #[error("the deck must be the 52 cards, each once: {0}")]
    Deck(String),
    #[error("dealer {dealer} is not a seat of a {players}-player game")]
    Dealer { dealer: Seat, players: u8 },
    #[error("start position: {0}")]
    Position(String),
}

/// A phase-two position for tests and puzzles (SPEC 3.5).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Position {
    pub trump: Suit,
    pub hands: Vec<CardSet>,
    pub leader: Seat,
}

fn blank(players: u8, dealer: Seat) -> State {
    State {
        hands: [CardSet::EMPTY; MAX_SEATS],
        aside: CardSet::EMPTY,
        gone: CardSet::EMPTY,
        owners: Owners::default(),
        piles: Piles::new(&[], &[]),
        table: Table::EMPTY,
        out_order: 0,
        counted: 0,
        n: players,
        dealer,
        phase: Phase::One,
        awaiting: Awaiting::Nothing,
        leader: NONE,
        second: NONE,
        turn: NONE,
        trick_size: 0,
        trump: None,
        trump_card: None,
        trump_holder: NONE,
        playing: SeatSet::first(players),
        loser: NONE,
        flags: 0,
        round: SeatSet::EMPTY,
        round_done: SeatSet::EMPTY,
        winner: NONE,
        window: SeatSet::EMPTY,
    }
}

fn check_seats(rules: &Ruleset, players: u8, dealer: Seat) -> Result<(), SetupError> {
    rules.check_players(players)?;
    if dealer >= players {
        return Err(SetupError::Dealer { dealer, players });
    }
    Ok(())
}

impl State {
    /// Deals `deck` (the pack in order, SPEC 2): the reserve first if the
    /// ruleset has one, then one card at a time from the dealer's left.
    pub fn deal(
        rules: &Ruleset,
        players: u8,
        dealer: Seat,
        deck: &[Card],
    ) -> Result<State, SetupError> {
        check_seats(rules, players, dealer)?;
        let set: CardSet = deck.iter().copied().collect();
        if deck.len() != 52 || set != CardSet::FULL {
            let missing = (CardSet::FULL - set).ascending().next();
            return Err(SetupError::Deck(match missing {
                Some(card) => format!("{} cards given, {card} missing", deck.len()),
                None => format!("{} cards given", deck.len()),
            }));
        }
        let o = &rules.options;
        let mut state = blank(players, dealer);
        let reserve = o.reserve as usize;
        let n = players as usize;
        for (i, &card) in deck[reserve..reserve + 3 * n].iter().enumerate() {
            state.hands[(dealer as usize + 1 + i) % n].insert(card);
        }
        let rest = &deck[reserve + 3 * n..];
        state.piles = if o.mode == Phase1Mode::TurnedTrump {
            // The turned-up card lies face up under the stock as its bottom card.
            let mut stock = rest[1..].to_vec();
            stock.push(rest[0]);
            state.trump = Some(rest[0].suit());
            state.trump_card = Some(rest[0]);
            Piles::new(&stock, &[])
        } else {
            Piles::new(rest, &deck[..reserve])
        };
        state.leader = (dealer + 1) % players;
        state.begin_trick(rules, state.leader);
        Ok(state)
    }

    /// A game starting in phase two (SPEC 3.5): cards in no hand are out of play.
    pub fn from_position(
        rules: &Ruleset,
        players: u8,
        dealer: Seat,
        position: &Position,
    ) -> Result<State, SetupError> {
        check_seats(rules, players, dealer)?;
        if position.hands.len() != players as usize {
            return Err(SetupError::Position(format!(
                "{} hands given for {players} players",
                position.hands.len()
            )));
        }
        let mut seen = CardSet::EMPTY;
        for hand in &position.hands {
            if let Some(card) = (seen & *hand).first() {
                return Err(SetupError::Position(format!("{card} is in two hands")));
            }
            seen |= *hand;
        }
        if position.leader >= players {
            return Err(SetupError::Position(format!(
                "leader {} is not a seat",
                position.leader
            )));
        }
        let mut state = blank(players, dealer);
        state.phase = Phase::Two;
        state.trump = Some(position.trump);
        state.gone = CardSet::FULL - seen;
        for (seat, hand) in position.hands.iter().enumerate() {
            state.hands[seat] = *hand;
        }
        let holding = state.seats_with_cards();
        if holding.len() >= 2 && !holding.contains(position.leader) {
            return Err(SetupError::Position(format!(
                "leader {} has no cards while {} seats do",
                position.leader,
                holding.len()
            )));
        }
        state.settle_empty_hands(rules, true);
        if state.phase == Phase::Two && holding.is_empty() {
            // Blue seats stay in the game with no cards; none may lead.
            return Err(SetupError::Position(
                "no seat holds a card, so nobody can lead".into(),
            ));
        }
        if state.phase == Phase::Two {
            state.lead_from(position.leader);
        }
        Ok(state)
    }
}

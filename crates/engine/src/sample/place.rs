//! A world given from outside (the service's SampleWorlds answers one) put
//! on a game the same seat cannot tell from it, such as one rebuilt from
//! the seat's view: the game that world describes, checked against
//! everything the seat knows.

use std::collections::BTreeMap;

use super::{Group, Slot, realize};
use crate::known::{face_down_trump, pile};
use crate::{Card, CardSet, Game, Seat, World};

/// Why a world cannot be put on a game for a seat.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the world does not agree with seat {seat}'s view: {problem}")]
pub struct WorldError {
    pub seat: Seat,
    pub problem: String,
}

impl Game {
    /// This game with the hidden cards of `viewer` placed as `world` places
    /// them: `world` must agree with everything `viewer` sees of this game
    /// (its own hand, every known card, the turned-up card, how many cards
    /// lie in each place) and may move a card only among the places a
    /// sample could put it (the same group, the revealed voids kept). The
    /// result gives `viewer` this game's view and legal actions.
    pub fn with_world(&self, viewer: Seat, world: &World) -> Result<Game, WorldError> {
        let fail = |problem: String| WorldError {
            seat: viewer,
            problem,
        };
        let players = self.state().players();
        if viewer >= players {
            return Err(fail(format!("no seat {viewer} at a table of {players}")));
        }
        let target = self.target(viewer, world).map_err(fail)?;
        let hidden = self.hidden(Some(viewer));
        let by_group = |list: &[(Card, Slot)]| {
            let mut groups: BTreeMap<Group, (Vec<Card>, Vec<Slot>)> = BTreeMap::new();
            for &(card, slot) in list {
                let group = groups.entry(self.group(card)).or_default();
                group.0.push(card);
                group.1.push(slot);
            }
            for (cards, slots) in groups.values_mut() {
                cards.sort_unstable_by_key(|c| c.index());
                slots.sort_unstable();
            }
            groups
        };
        if by_group(&hidden) != by_group(&target) {
            return Err(fail(
                "its hidden cards are not the seat's hidden cards in their possible places".into(),
            ));
        }
        if !self.keeps_voids(Some(viewer), &target) {
            return Err(fail(
                "a hand holds cards of a suit or rank it showed it lacked".into(),
            ));
        }
        let mut game = self.clone();
        game.state = realize(self, &hidden, &target);
        if game.world() != *world {
            return Err(fail(
                "the cards the seat sees are not where it sees them".into(),
            ));
        }
        Ok(game)
    }

    /// Each card `world` puts where `viewer` cannot see, with that place.
    fn target(&self, viewer: Seat, world: &World) -> Result<Vec<(Card, Slot)>, String> {
        let s = self.state();
        let players = usize::from(s.players());
        if world.hands.len() != players || world.piles.len() != players {
            return Err(format!("{players} hands and piles wanted"));
        }
        let stock = s.piles.stock_cards();
        if world.stock.len() != stock.len() || world.reserve.len() != s.piles.reserve_cards().len()
        {
            return Err("the stock or the reserve holds a different number of cards".into());
        }
        let known = self.known();
        let mut out = Vec::new();
        for seat in 0..s.players() {
            let (hand, pile_cards) = (
                world.hands[usize::from(seat)],
                world.piles[usize::from(seat)],
            );
            if seat == viewer && hand != s.hand(seat) {
                return Err(format!("seat {seat}'s hand is not its own"));
            }
            for (set, seen, real, slot) in [
                (hand, known.hand(seat), s.hand(seat), Slot::Hand(seat)),
                (
                    pile_cards,
                    known.pile(seat),
                    pile(s, seat),
                    Slot::Pile(seat),
                ),
            ] {
                if seen - set != CardSet::EMPTY || set.len() != real.len() {
                    return Err(format!("seat {seat}'s cards are not as the seat sees them"));
                }
                if seat != viewer || slot == Slot::Pile(seat) {
                    out.extend((set - seen).iter().map(|c| (c, slot)));
                }
            }
        }
        let turned = s.turned_card();
        for (i, &card) in world.stock.iter().rev().enumerate() {
            if Some(stock[i]) == turned {
                if Some(card) != turned {
                    return Err("the turned-up card is not under the stock".into());
                }
                continue;
            }
            out.push((card, Slot::Stock(i as u8)));
        }
        for (i, &card) in world.reserve.iter().enumerate() {
            out.push((card, Slot::Reserve(i as u8)));
        }
        if world.face_down_trump.is_none() != face_down_trump(s).is_empty() {
            return Err(
                "a face-down trump card where there is none, or none where there is".into(),
            );
        }
        out.extend(world.face_down_trump.map(|c| (c, Slot::FaceDownTrump)));
        Ok(out)
    }
}

//! Sampled worlds in both forms: the engine's [`World`] (where every card
//! lies) as the API's `v1::World`, which SampleWorlds answers, and back, for
//! a client that puts a world on its own copy of the game
//! (`Game::with_world`).

use skit_engine::{Card, CardSet, World};
use skit_proto::v1;

use crate::ConvertError;
use crate::action::{card, card_set};

fn cards(set: CardSet) -> v1::Cards {
    v1::Cards {
        cards: texts(set.ascending()),
    }
}

fn texts(cards: impl IntoIterator<Item = Card>) -> Vec<String> {
    cards.into_iter().map(|c| c.to_string()).collect()
}

/// `world` as SampleWorlds answers it.
pub fn world_message(world: &World) -> v1::World {
    v1::World {
        hands: world.hands.iter().copied().map(cards).collect(),
        piles: world.piles.iter().copied().map(cards).collect(),
        stock: texts(world.stock.iter().copied()),
        reserve: texts(world.reserve.iter().copied()),
        face_down_trump: world.face_down_trump.map(|c| c.to_string()),
    }
}

/// The engine's world of a SampleWorlds world: every card known, none
/// twice within a hand or pile (the engine checks the rest against the
/// game it is put on).
pub fn engine_world(world: &v1::World) -> Result<World, ConvertError> {
    let sets = |list: &[v1::Cards], field: &str| -> Result<Vec<CardSet>, ConvertError> {
        list.iter()
            .enumerate()
            .map(|(i, c)| card_set(&c.cards, &format!("{field}[{i}].cards")))
            .collect()
    };
    let line = |list: &[String], field: &str| -> Result<Vec<Card>, ConvertError> {
        list.iter()
            .enumerate()
            .map(|(i, text)| card(text, &format!("{field}[{i}]")))
            .collect()
    };
    Ok(World {
        hands: sets(&world.hands, "hands")?,
        piles: sets(&world.piles, "piles")?,
        stock: line(&world.stock, "stock")?,
        reserve: line(&world.reserve, "reserve")?,
        face_down_trump: world
            .face_down_trump
            .as_deref()
            .map(|text| card(text, "face_down_trump"))
            .transpose()?,
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn set(cards: &[&str]) -> CardSet {
        cards.iter().map(|c| c.parse::<Card>().unwrap()).collect()
    }

    #[test]
    fn a_world_reads_back_as_it_was_written() {
        let world = World {
            hands: vec![set(&["7C", "AS"]), set(&["2D"])],
            piles: vec![set(&["TH"]), CardSet::EMPTY],
            stock: vec!["9S".parse().unwrap(), "3C".parse().unwrap()],
            reserve: Vec::new(),
            face_down_trump: Some("KD".parse().unwrap()),
        };

        let message = world_message(&world);

        assert_eq!(message.hands[0].cards, ["7C", "AS"]);
        assert_eq!(message.stock, ["9S", "3C"]);
        assert_eq!(engine_world(&message).unwrap(), world);
    }

    #[test]
    fn a_card_twice_in_a_hand_or_an_unknown_card_is_named() {
        let mut message = world_message(&World {
            hands: vec![set(&["7C"])],
            piles: vec![CardSet::EMPTY],
            stock: Vec::new(),
            reserve: Vec::new(),
            face_down_trump: None,
        });
        message.hands[0].cards.push("7C".into());
        let twice = engine_world(&message).unwrap_err();
        message.hands[0].cards = vec!["1X".into()];
        let unknown = engine_world(&message).unwrap_err();

        assert_eq!(twice.field, "hands[0].cards");
        assert_eq!(unknown.field, "hands[0].cards");
    }
}

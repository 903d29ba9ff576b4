//! Actions in the API's form (`v1::Action`, one field set) and the engine's
//! (`MoveKind`), both ways, exactly as the service reads and writes them.

use skit_engine::{Card, CardSet, MoveKind};
use skit_proto::v1;
use v1::action::Kind;

use crate::ConvertError;

/// Card strings (`"7C"`, `"TS"`) as a set; `field` names the list in errors.
pub(crate) fn card_set(cards: &[String], field: &str) -> Result<CardSet, ConvertError> {
    cards.iter().map(|c| card(c, field)).collect()
}

pub(crate) fn card(text: &str, field: &str) -> Result<Card, ConvertError> {
    text.parse::<Card>()
        .map_err(|e| ConvertError::new(field, format!("{text:?}: {e}")))
}

/// The engine's move for an API action; `field` names the action in errors
/// (`legal_actions[3]`).
pub fn move_kind(action: &v1::Action, field: &str) -> Result<MoveKind, ConvertError> {
    let flag = |set: bool, name: &str, kind: MoveKind| {
        if set {
            Ok(kind)
        } else {
            Err(ConvertError::new(
                format!("{field}.{name}"),
                "must be true when set",
            ))
        }
    };
    match action.kind.as_ref() {
        None => Err(ConvertError::new(field, "no action kind is set")),
        Some(Kind::Play(p)) => {
            let cards = card_set(&p.cards, &format!("{field}.play.cards"))?;
            non_empty(cards, &format!("{field}.play.cards")).map(MoveKind::Play)
        }
        Some(Kind::Sluff(s)) => {
            let cards = card_set(&s.cards, &format!("{field}.sluff.cards"))?;
            non_empty(cards, &format!("{field}.sluff.cards")).map(MoveKind::Sluff)
        }
        Some(Kind::Chance(b)) => flag(*b, "chance", MoveKind::Chance),
        Some(Kind::Pickup(b)) => flag(*b, "pickup", MoveKind::Pickup),
        Some(Kind::Pass(b)) => flag(*b, "pass", MoveKind::Pass),
        Some(Kind::Claim(b)) => flag(*b, "claim", MoveKind::Claim),
        Some(Kind::Rob(b)) => flag(*b, "rob", MoveKind::Rob),
        Some(Kind::Bank(b)) => flag(*b, "bank", MoveKind::Bank),
    }
}

fn non_empty(cards: CardSet, field: &str) -> Result<CardSet, ConvertError> {
    if cards.is_empty() {
        Err(ConvertError::new(field, "names no card"))
    } else {
        Ok(cards)
    }
}

/// The API action for an engine move, cards ascending (as the service
/// lists legal actions).
pub fn action_message(kind: &MoveKind) -> v1::Action {
    let ascending = |set: CardSet| set.ascending().map(|c| c.to_string()).collect();
    let kind = match *kind {
        MoveKind::Play(cards) => Kind::Play(v1::PlayAction {
            cards: ascending(cards),
        }),
        MoveKind::Sluff(cards) => Kind::Sluff(v1::SluffAction {
            cards: ascending(cards),
        }),
        MoveKind::Chance => Kind::Chance(true),
        MoveKind::Pickup => Kind::Pickup(true),
        MoveKind::Pass => Kind::Pass(true),
        MoveKind::Claim => Kind::Claim(true),
        MoveKind::Rob => Kind::Rob(true),
        MoveKind::Bank => Kind::Bank(true),
    };
    v1::Action { kind: Some(kind) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(cards: &[&str]) -> CardSet {
        cards
            .iter()
            .map(|c| c.parse::<Card>().expect("card"))
            .collect()
    }

    #[test]
    fn every_kind_goes_there_and_back() {
        let kinds = [
            MoveKind::Play(set(&["7C", "7H"])),
            MoveKind::Sluff(set(&["2S"])),
            MoveKind::Chance,
            MoveKind::Pickup,
            MoveKind::Pass,
            MoveKind::Claim,
            MoveKind::Rob,
            MoveKind::Bank,
        ];
        for kind in kinds {
            let message = action_message(&kind);
            assert_eq!(move_kind(&message, "action"), Ok(kind));
        }
    }

    #[test]
    fn malformed_actions_name_the_field() {
        let bad_card = v1::Action {
            kind: Some(Kind::Play(v1::PlayAction {
                cards: vec!["7C".into(), "ZZ".into()],
            })),
        };
        let err = move_kind(&bad_card, "legal_actions[2]").expect_err("bad card");
        assert_eq!(err.field, "legal_actions[2].play.cards");
        assert!(err.message.contains("ZZ"), "{err}");

        let empty = v1::Action {
            kind: Some(Kind::Sluff(v1::SluffAction { cards: vec![] })),
        };
        let err = move_kind(&empty, "a").expect_err("no cards");
        assert_eq!(err.field, "a.sluff.cards");

        let unset = v1::Action {
            kind: Some(Kind::Pass(false)),
        };
        assert_eq!(move_kind(&unset, "a").expect_err("false").field, "a.pass");
        assert!(move_kind(&v1::Action { kind: None }, "a").is_err());
    }
}

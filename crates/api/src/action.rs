//! Actions in the API's form (`v1::Action`, one field set) and the engine's
//! (`MoveKind`), both ways. The one reading of an action: the game service
//! reads a submitted move with it and clients read the legal actions of a
//! view with it, so a client refuses exactly what the service refuses, for
//! the same reason. It reads an action as the engine reads the action's
//! JSON form (`MoveKind::from_fields`, the conformance format), so that
//! form agrees too.

use serde_json::{Map, json};
use skit_engine::{Card, CardSet, MoveKind};
use skit_proto::v1;
use v1::action::Kind;

use crate::ConvertError;

/// Card strings (`"7C"`, `"TS"`) as a set, each card at most once; `field`
/// names the list in errors.
pub(crate) fn card_set(cards: &[String], field: &str) -> Result<CardSet, ConvertError> {
    let mut set = CardSet::EMPTY;
    for text in cards {
        let card = card(text, field)?;
        if set.contains(card) {
            return Err(ConvertError::new(field, format!("lists {card} twice")));
        }
        set.insert(card);
    }
    Ok(set)
}

pub(crate) fn card(text: &str, field: &str) -> Result<Card, ConvertError> {
    text.parse::<Card>()
        .map_err(|e| ConvertError::new(field, format!("{text:?}: {e}")))
}

/// The engine's move for an API action, checked for form only (the rules
/// come later): a known kind, a flag that is true, a card list of known
/// cards, none twice, not empty. `field` names the action (`action`,
/// `legal_actions[3]`); a refusal names its kind (`action.play`).
pub fn move_kind(action: &v1::Action, field: &str) -> Result<MoveKind, ConvertError> {
    let (name, value) = match action.kind.as_ref() {
        None => return Err(ConvertError::new(field, "no action kind is set")),
        Some(Kind::Play(p)) => ("play", json!(p.cards)),
        Some(Kind::Sluff(s)) => ("sluff", json!(s.cards)),
        Some(Kind::Chance(b)) => ("chance", json!(b)),
        Some(Kind::Pickup(b)) => ("pickup", json!(b)),
        Some(Kind::Pass(b)) => ("pass", json!(b)),
        Some(Kind::Claim(b)) => ("claim", json!(b)),
        Some(Kind::Rob(b)) => ("rob", json!(b)),
        Some(Kind::Bank(b)) => ("bank", json!(b)),
    };
    let fields = Map::from_iter([(name.to_owned(), value)]);
    MoveKind::from_fields(&fields).map_err(|e| ConvertError::new(format!("{field}.{name}"), e.0))
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

    fn play(cards: &[&str]) -> v1::Action {
        v1::Action {
            kind: Some(Kind::Play(v1::PlayAction {
                cards: cards.iter().map(|c| (*c).to_owned()).collect(),
            })),
        }
    }

    #[test]
    fn malformed_actions_name_the_field() {
        let err = move_kind(&play(&["7C", "ZZ"]), "legal_actions[2]").expect_err("bad card");
        assert_eq!(err.field, "legal_actions[2].play");
        assert!(err.message.contains("ZZ"), "{err}");

        let empty = v1::Action {
            kind: Some(Kind::Sluff(v1::SluffAction { cards: vec![] })),
        };
        let err = move_kind(&empty, "a").expect_err("no cards");
        assert_eq!(err.field, "a.sluff");

        let unset = v1::Action {
            kind: Some(Kind::Pass(false)),
        };
        assert_eq!(move_kind(&unset, "a").expect_err("false").field, "a.pass");
        assert!(move_kind(&v1::Action { kind: None }, "a").is_err());
    }

    #[test]
    fn a_refused_submission_names_the_field_in_its_message() {
        let err = crate::ApiError::from(move_kind(&play(&["ZZ"]), "action").expect_err("bad card"));
        assert!(err.to_string().starts_with("action.play"), "{err}");
        let unset = v1::Action {
            kind: Some(Kind::Pass(false)),
        };
        assert!(move_kind(&unset, "action").is_err());
        let none = move_kind(&v1::Action::default(), "action").expect_err("no kind");
        assert_eq!(none.field, "action");
    }

    #[test]
    fn a_card_listed_twice_is_refused_naming_it() {
        let err = move_kind(&play(&["7S", "7S"]), "action").expect_err("twice");
        assert_eq!(err.field, "action.play");
        assert!(err.message.contains("7S"), "{err}");
        let err = move_kind(&play(&["7S", "7s"]), "action").expect_err("twice");
        assert!(err.message.contains("twice"), "{err}");
        assert!(card_set(&["7S".into(), "7S".into()], "hand").is_err());
        assert_eq!(card_set(&[], "hand"), Ok(CardSet::EMPTY));
    }

    /// The API form and the engine's JSON form of the same action are read
    /// alike: the same move or the same refusal.
    #[test]
    fn the_api_form_reads_as_the_json_form() {
        for cards in [
            vec!["7S"],
            vec!["7S", "7H"],
            vec!["7S", "7S"],
            vec!["7s", "7S"],
            vec![],
            vec!["1X"],
            vec!["7S", ""],
        ] {
            let json = serde_json::json!({"play": cards});
            let engine = MoveKind::from_fields(json.as_object().expect("object")).map_err(|e| e.0);

            let api = move_kind(&play(&cards), "action").map_err(|e| e.message);

            assert_eq!(api, engine, "{cards:?}");
        }
    }
}

//! An API view back into the engine's per-seat [`View`]: the inverse of the
//! service's `convert::view`, field by field, so a strategy written against
//! the engine decides from a view fetched over the network exactly as from
//! the engine's own (see `tests/api/view_roundtrip.rs`).

use skit_engine::{Phase, SeatView, Suit, View};
use skit_proto::v1;

use crate::ConvertError;
use crate::action::{card, card_set, move_kind};
use crate::history::{records, seat};
use crate::rules::rules;
use crate::table::entries;

/// The engine's view of `view`, which must carry the whole history (fetched
/// without `history_after`): the search strategy replays it.
pub fn engine_view(view: &v1::View) -> Result<View, ConvertError> {
    let players = u8::try_from(view.players)
        .ok()
        .filter(|&p| p > 0)
        .ok_or_else(|| ConvertError::new("players", format!("{} players", view.players)))?;
    let seat = |n: u32, field: &str| seat(n, field, players);
    let seats_of = |list: &[u32], field: &str| -> Result<Vec<u8>, ConvertError> {
        list.iter()
            .enumerate()
            .map(|(i, &s)| seat(s, &format!("{field}[{i}]")))
            .collect()
    };
    let phase = phase(view.phase)?;
    let trump = view.trump.as_deref().map(suit).transpose()?;
    let history = records(view, players, phase, trump)?;
    let viewer = view
        .viewer_seat
        .map(|s| seat(s, "viewer_seat"))
        .transpose()?;
    Ok(View {
        rules: rules(view.rules.as_ref())?,
        players,
        dealer: seat(view.dealer, "dealer")?,
        phase,
        awaiting_shuffle: view.awaits_shuffle,
        seat: viewer,
        to_act: seats_of(&view.to_act, "to_act")?,
        hand: viewer.map(|_| card_set(&view.hand, "hand")).transpose()?,
        legal: view
            .legal_actions
            .iter()
            .enumerate()
            .map(|(i, a)| move_kind(a, &format!("legal_actions[{i}]")))
            .collect::<Result<_, _>>()?,
        seats: view
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| {
                Ok(SeatView {
                    hand_size: s.hand_size,
                    pile_size: s.pile_size,
                    out: s.out,
                    known_cards: card_set(&s.known_cards, &format!("seats[{i}].known_cards"))?,
                })
            })
            .collect::<Result<_, ConvertError>>()?,
        stock_size: view.stock_size,
        reserve_size: view.reserve_size,
        trump,
        turned_card: view
            .trump_card
            .as_deref()
            .map(|c| card(c, "trump_card"))
            .transpose()?,
        trump_holder: view
            .trump_holder
            .map(|s| seat(s, "trump_holder"))
            .transpose()?,
        table: entries(view, phase, players, &history)?,
        trick_size: view
            .trick_size
            .map(|n| u8::try_from(n).map_err(|_| ConvertError::new("trick_size", format!("{n}"))))
            .transpose()?,
        leader: view.leader.map(|s| seat(s, "leader")).transpose()?,
        out: seats_of(&view.out, "out")?,
        loser: view.loser.map(|s| seat(s, "loser")).transpose()?,
        drawn: view.drawn_by_limit,
        history,
    })
}

fn phase(n: i32) -> Result<Phase, ConvertError> {
    match v1::Phase::try_from(n) {
        Ok(v1::Phase::One) => Ok(Phase::One),
        Ok(v1::Phase::Two) => Ok(Phase::Two),
        Ok(v1::Phase::Over) => Ok(Phase::Over),
        _ => Err(ConvertError::new("phase", format!("no phase {n}"))),
    }
}

fn suit(text: &str) -> Result<Suit, ConvertError> {
    let mut chars = text.chars();
    match (chars.next().and_then(Suit::from_letter), chars.next()) {
        (Some(suit), None) => Ok(suit),
        _ => Err(ConvertError::new(
            "trump",
            format!("{text:?} is not a suit"),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_fields_are_named() {
        let mut view = v1::View {
            players: 3,
            phase: v1::Phase::One as i32,
            viewer_seat: Some(1),
            hand: vec!["7C".into(), "1X".into()],
            ..Default::default()
        };
        let err = engine_view(&view).expect_err("bad card");
        assert_eq!(err.field, "hand", "{err}");

        view.hand = vec!["7C".into()];
        view.to_act = vec![5];
        let err = engine_view(&view).expect_err("bad seat");
        assert_eq!(err.field, "to_act[0]", "{err}");

        view.to_act = vec![0];
        view.trump = Some("X".into());
        assert_eq!(engine_view(&view).expect_err("suit").field, "trump");

        view.trump = None;
        view.phase = 0;
        assert_eq!(engine_view(&view).expect_err("phase").field, "phase");
    }
}

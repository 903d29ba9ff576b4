//! The API history back into the engine's records.
//!
//! The API lists one event per engine record except three: the deal (the
//! API's event 0, a shuffle with no cards, which the engine does not record),
//! the start of phase two and the end (which the API shows in the view
//! instead). [`records`] drops the first and rebuilds the other two from
//! the view, as the engine would have recorded them: `PhaseTwo { trump,
//! trump_holder }` once the game left phase one with a trump suit, `End {
//! loser, drawn }` once it is over.
//!
//! The view's `phase_two_version` says where phase two began: the rebuilt
//! `PhaseTwo` follows the event at that version, as in the engine's own
//! history (the world sampler splits the history there). A view without it
//! (from a server that predates it) gets `PhaseTwo` after the last event.

use skit_engine::{Phase, Record, Seat, Suit};
use skit_proto::v1::{self, EventKind};

use crate::ConvertError;
use crate::action::{card, card_set};

/// The engine records of `view.history`, which must be the whole history
/// (a view fetched without `history_after`). `players`, `phase`, `trump`,
/// `trump_holder`, `loser` and `drawn` are the view's, already converted.
pub(crate) fn records(
    view: &v1::View,
    players: u8,
    phase: Phase,
    trump: Option<Suit>,
) -> Result<Vec<Record>, ConvertError> {
    let mut records = Vec::with_capacity(view.history.len() + 2);
    // How many records come before phase two's start.
    let mut before_two = None;
    for (i, event) in view.history.iter().enumerate() {
        if before_two.is_none() && view.phase_two_version.is_some_and(|v| event.version > v) {
            before_two = Some(records.len());
        }
        if let Some(record) = record(event, &format!("history[{i}]"), players)? {
            records.push(record);
        }
    }
    if phase != Phase::One && trump.is_some() {
        let at = before_two.unwrap_or(records.len());
        records.insert(
            at,
            Record::PhaseTwo {
                trump,
                trump_holder: view
                    .trump_holder
                    .map(|s| seat(s, "trump_holder", players))
                    .transpose()?,
            },
        );
    }
    if phase == Phase::Over {
        records.push(Record::End {
            loser: view.loser.map(|s| seat(s, "loser", players)).transpose()?,
            drawn: view.drawn_by_limit,
        });
    }
    Ok(records)
}

/// A seat number below `players`.
pub(crate) fn seat(n: u32, field: &str, players: u8) -> Result<Seat, ConvertError> {
    u8::try_from(n)
        .ok()
        .filter(|&s| s < players)
        .ok_or_else(|| ConvertError::new(field, format!("no seat {n} at {players} players")))
}

fn record(
    event: &v1::HistoryEvent,
    field: &str,
    players: u8,
) -> Result<Option<Record>, ConvertError> {
    let kind = EventKind::try_from(event.kind)
        .map_err(|_| ConvertError::new(format!("{field}.kind"), "unknown event kind"))?;
    let actor = || {
        let n = event
            .seat
            .ok_or_else(|| ConvertError::new(format!("{field}.seat"), "missing"))?;
        seat(n, &format!("{field}.seat"), players)
    };
    let cards_field = format!("{field}.cards");
    let cards = || card_set(&event.cards, &cards_field);
    let one_card = || match event.cards.as_slice() {
        [c] => card(c, &cards_field),
        other => Err(ConvertError::new(
            &cards_field,
            format!("expected one card, got {}", other.len()),
        )),
    };
    let record = match kind {
        // The deal: not an engine record.
        EventKind::Shuffle if event.version == 0 => return Ok(None),
        EventKind::Shuffle => Record::Shuffle { cards: cards()? },
        EventKind::Play => Record::Play {
            seat: actor()?,
            cards: cards()?,
        },
        EventKind::Chance => Record::Chance {
            seat: actor()?,
            card: one_card()?,
        },
        EventKind::Pickup => Record::Pickup {
            seat: actor()?,
            cards: cards()?,
        },
        EventKind::Sluff => Record::Sluff {
            seat: actor()?,
            cards: cards()?,
        },
        EventKind::Pass => Record::Pass { seat: actor()? },
        EventKind::Claim => Record::Claim { seat: actor()? },
        EventKind::Rob => Record::Rob {
            seat: actor()?,
            card: one_card()?,
        },
        EventKind::Bank => Record::Bank {
            seat: actor()?,
            cards: cards()?,
        },
        // The service's own endings, and a forfeit the game goes on after:
        // the view's seats, result and `End` say it all.
        EventKind::Resign | EventKind::Timeout | EventKind::Void | EventKind::Forfeit => {
            return Ok(None);
        }
        EventKind::Unspecified => {
            return Err(ConvertError::new(
                format!("{field}.kind"),
                "unspecified event kind",
            ));
        }
    };
    Ok(Some(record))
}

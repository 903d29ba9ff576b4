//! The table back into the engine's entries. Phase two's lays are one
//! entry each already. Phase one's table is a flat list of cards; the
//! engine groups it by play (a pair played at once is one entry, the same
//! seat's next play another), so the cards are grouped again by the history
//! record that put each one on the table.

use std::collections::HashMap;

use skit_engine::{Card, CardSet, Phase, Record, TableEntry};
use skit_proto::v1;

use crate::ConvertError;
use crate::action::{card, card_set};
use crate::history::seat;

/// `view`'s table as engine entries; `records` is the converted history.
pub fn entries(
    view: &v1::View,
    phase: Phase,
    players: u8,
    records: &[Record],
) -> Result<Vec<TableEntry>, ConvertError> {
    if phase != Phase::One {
        return view
            .table_lays
            .iter()
            .enumerate()
            .map(|(i, lay)| {
                let field = format!("table_lays[{i}]");
                Ok(TableEntry {
                    seat: seat(lay.seat, &format!("{field}.seat"), players)?,
                    cards: card_set(&lay.cards, &format!("{field}.cards"))?,
                    sluff: false,
                })
            })
            .collect();
    }
    let placed = placing_records(records);
    let mut entries: Vec<(usize, TableEntry)> = Vec::new();
    for (i, t) in view.table_cards.iter().enumerate() {
        let field = format!("table_cards[{i}]");
        let card: Card = card(&t.card, &format!("{field}.card"))?;
        let seat = seat(t.seat, &format!("{field}.seat"), players)?;
        // Cards no record placed (never for a real game) stay apart.
        let source = placed.get(&card).copied().unwrap_or(usize::MAX - i);
        let extends = entries.last().is_some_and(|(from, last)| {
            *from == source && last.seat == seat && last.sluff == t.is_sluff
        });
        match entries.last_mut() {
            Some((_, last)) if extends => last.cards.insert(card),
            _ => entries.push((
                source,
                TableEntry {
                    seat,
                    cards: CardSet::single(card),
                    sluff: t.is_sluff,
                },
            )),
        }
    }
    Ok(entries.into_iter().map(|(_, e)| e).collect())
}

/// For each card, the index of the last record that put it on the table.
fn placing_records(records: &[Record]) -> HashMap<Card, usize> {
    let mut placed = HashMap::new();
    for (i, record) in records.iter().enumerate() {
        let cards = match *record {
            Record::Play { cards, .. } | Record::Sluff { cards, .. } => cards,
            Record::Chance { card, .. } => CardSet::single(card),
            _ => continue,
        };
        for card in cards {
            placed.insert(card, i);
        }
    }
    placed
}

//! Engine values to API messages and back. Views are built only from the
//! engine's `game.view(seat)` for the viewer's own seat (or a spectator),
//! plus what that seat itself received: never from the engine state.

use skit_api::{action_message, timestamp};
use skit_engine::{Card, CardSet, Phase, Record, Seat, TableEntry};
use skit_proto::v1;

use crate::cached::Cached;
use crate::clock;
use crate::live::{Entry, Forfeit, Live, public_cards};
use crate::places;

fn card_strings(cards: impl IntoIterator<Item = Card>) -> Vec<String> {
    cards.into_iter().map(|c| c.to_string()).collect()
}

fn ascending(set: CardSet) -> Vec<String> {
    card_strings(set.ascending())
}

pub fn phase(phase: Phase) -> v1::Phase {
    match phase {
        Phase::One => v1::Phase::One,
        Phase::Two => v1::Phase::Two,
        Phase::Over => v1::Phase::Over,
    }
}

/// One history record as an event; `seat` is the viewer, whose private
/// cards it shows; `full` reveals shuffle orders (after the end only).
fn history_event(
    record: &Record,
    entry: &Entry,
    seat: Option<Seat>,
    full: bool,
) -> Option<v1::HistoryEvent> {
    let (kind, actor) = match record {
        Record::Play { seat, .. } => (v1::EventKind::Play, Some(seat)),
        Record::Chance { seat, .. } => (v1::EventKind::Chance, Some(seat)),
        Record::Pickup { seat, .. } => (v1::EventKind::Pickup, Some(seat)),
        Record::Sluff { seat, .. } => (v1::EventKind::Sluff, Some(seat)),
        Record::Pass { seat } => (v1::EventKind::Pass, Some(seat)),
        Record::Claim { seat } => (v1::EventKind::Claim, Some(seat)),
        Record::Rob { seat, .. } => (v1::EventKind::Rob, Some(seat)),
        Record::Bank { seat, .. } => (v1::EventKind::Bank, Some(seat)),
        Record::Shuffle { .. } => (v1::EventKind::Shuffle, None),
        // The deal is already event 0; the phase change and the end are in the view.
        Record::Deal { .. } | Record::PhaseTwo { .. } | Record::End { .. } => return None,
    };
    let cards = match (&entry.order, full) {
        (Some(order), true) => card_strings(order.iter().copied()),
        _ => ascending(public_cards(record)),
    };
    let private = seat
        .and_then(|s| entry.received.get(usize::from(s)).copied())
        .unwrap_or(CardSet::EMPTY);
    Some(v1::HistoryEvent {
        version: entry.version,
        kind: kind as i32,
        seat: actor.map(|&s| u32::from(s)),
        cards,
        private_cards: ascending(private),
        time: Some(timestamp(entry.at)),
        by_clock: entry.by_clock,
    })
}

/// The history as `seat` sees it (`full`: everyone's, after the end), from
/// version `after` on; the deal is the first event, at version 0.
pub fn history(
    live: &Live,
    seat: Option<Seat>,
    after: Option<u64>,
    full: bool,
) -> Vec<v1::HistoryEvent> {
    let mut events = Vec::new();
    if after.is_none() {
        events.push(v1::HistoryEvent {
            version: 0,
            kind: v1::EventKind::Shuffle as i32,
            seat: None,
            cards: if full {
                card_strings(live.deck.iter().copied())
            } else {
                Vec::new()
            },
            private_cards: seat
                .and_then(|s| live.dealt.get(usize::from(s)).copied())
                .map(ascending)
                .unwrap_or_default(),
            time: Some(timestamp(live.created_at)),
            by_clock: false,
        });
    }
    // Entries are in version order: find the first one after `after`
    // instead of walking the whole history, so a late view costs what an
    // early one does.
    let first = after.map_or(0, |a| live.entries.partition_point(|e| e.version <= a));
    let records = live.game.history().get(first..).unwrap_or_default();
    let entries = live.entries.get(first..).unwrap_or_default();
    events.extend(
        records
            .iter()
            .zip(entries)
            .filter_map(|(record, entry)| history_event(record, entry, seat, full)),
    );
    let forfeits = live
        .forfeits
        .iter()
        .filter(|f| after.is_none_or(|a| f.version > a));
    events.extend(forfeits.map(|f| v1::HistoryEvent {
        version: f.version,
        kind: v1::EventKind::Forfeit as i32,
        seat: Some(u32::from(f.seat)),
        cards: Vec::new(),
        private_cards: Vec::new(),
        time: Some(timestamp(f.at)),
        by_clock: false,
    }));
    // A forfeit comes between moves: in version order (stable, so the
    // records of one event keep theirs).
    events.sort_by_key(|e| e.version);
    if let Some(end) = &live.ending
        && after.is_none_or(|a| end.version > a)
    {
        let kind = match end.reason {
            Forfeit::Resigned => v1::EventKind::Resign,
            Forfeit::Timeout => v1::EventKind::Timeout,
        };
        events.push(v1::HistoryEvent {
            version: end.version,
            kind: kind as i32,
            seat: Some(u32::from(end.seat)),
            cards: Vec::new(),
            private_cards: Vec::new(),
            time: Some(timestamp(end.at)),
            by_clock: false,
        });
    }
    if let Some(void) = &live.void
        && after.is_none_or(|a| void.version > a)
    {
        events.push(v1::HistoryEvent {
            version: void.version,
            kind: v1::EventKind::Void as i32,
            seat: None,
            cards: Vec::new(),
            private_cards: Vec::new(),
            time: Some(timestamp(void.at)),
            by_clock: false,
        });
    }
    events
}

/// A stored (or starting) rating as the API message.
pub fn rating_message(rating: &skit_store::Rating) -> v1::Rating {
    v1::Rating {
        account_id: rating.account_id.to_string(),
        ruleset_key: rating.ruleset_key.clone(),
        mu: rating.skill.mu,
        sigma: rating.skill.sigma,
        conservative: rating.skill.conservative(),
        games: rating.games,
    }
}

/// `seat`'s view (`None`: a spectator's).
pub fn view(live: &Cached, seat: Option<Seat>, history_after: Option<u64>) -> v1::View {
    // The history comes from `history` below, which pairs each record with
    // its version; the engine's copy of it is not needed.
    let mut v = live.game.view_since(seat, live.game.history().len());
    if let Some(end) = &live.ending {
        // A forfeit ends the game where play stopped: nobody may act.
        v.phase = Phase::Over;
        v.loser = Some(end.seat);
        v.to_act.clear();
        v.legal.clear();
        v.leader = None;
        v.trick_size = None;
    }
    if live.void.is_some() {
        // A void game ends where play stopped, with nobody losing.
        v.phase = Phase::Over;
        v.loser = None;
        v.drawn = false;
        v.to_act.clear();
        v.legal.clear();
        v.leader = None;
        v.trick_size = None;
    }
    let finish = places::of_live(live);
    if !live.forfeits.is_empty() {
        if v.phase == Phase::Over && live.void.is_none() {
            v.loser = finish.skitgubbe();
        }
        // The clock plays a forfeited seat: its holder has nothing to do.
        if v.seat.is_some_and(|s| live.has_forfeited(s)) {
            v.legal.clear();
        }
    }
    let places = match live.void {
        Some(_) => Vec::new(),
        None => finish.known_places(),
    };
    let seats = v
        .seats
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let holder = live.seats.get(i).and_then(Option::as_ref);
            v1::SeatInfo {
                seat: i as u32,
                account_id: holder.map(|h| h.account_id.to_string()),
                name: holder.map(|h| h.name.clone()),
                is_bot: holder.is_some_and(|h| h.bot),
                forfeited: live.has_forfeited(i as Seat),
                hand_size: s.hand_size,
                pile_size: s.pile_size,
                out: s.out,
                known_cards: ascending(s.known_cards),
                finishing_position: places.get(i).copied().flatten(),
                deadline: live
                    .clocks
                    .as_ref()
                    .and_then(|c| c.deadline(i as Seat))
                    .map(timestamp),
                time_left: live
                    .clocks
                    .as_ref()
                    .and_then(|c| c.time_left(i as Seat))
                    .map(clock::duration),
                rating: holder
                    .and_then(|h| live.ratings.get(h.account_id))
                    .map(rating_message),
            }
        })
        .collect();
    let (table_cards, table_lays) = table(&v.table, v.phase);
    let over = v.phase == Phase::Over;
    let result = over.then(|| v1::GameResult {
        loser: v.loser.map(u32::from),
        drawn_by_limit: v.drawn,
        places: match live.void {
            Some(_) => Vec::new(),
            None => finish.places(),
        },
        seed: live.revealed_seed().unwrap_or_default(),
        ended_at: live.ended_at().map(timestamp),
        reason: match live.ending.as_ref().map(|e| e.reason) {
            _ if live.void.is_some() => v1::EndReason::Void,
            Some(Forfeit::Resigned) => v1::EndReason::Resigned,
            Some(Forfeit::Timeout) => v1::EndReason::Timeout,
            None if !live.forfeits.is_empty() => v1::EndReason::Forfeit,
            None if v.drawn => v1::EndReason::ActionLimit,
            None => v1::EndReason::PlayedOut,
        } as i32,
    });
    v1::View {
        game_id: live.id.to_string(),
        version: live.version,
        phase: phase(v.phase) as i32,
        awaits_shuffle: v.awaiting_shuffle,
        rules: Some(live.rules_message.as_ref().clone()),
        players: u32::from(v.players),
        dealer: u32::from(v.dealer),
        rated: live.rated,
        time_control: live.clocks.as_ref().map(|c| c.control.message()),
        seats,
        to_act: v.to_act.iter().map(|&s| u32::from(s)).collect(),
        viewer_seat: v.seat.map(u32::from),
        hand: v.hand.map(ascending).unwrap_or_default(),
        legal_actions: v.legal.iter().map(action_message).collect(),
        stock_size: v.stock_size,
        reserve_size: v.reserve_size,
        trump: v.trump.map(|t| t.letter().to_string()),
        trump_card: v.turned_card.map(|c| c.to_string()),
        trump_holder: v.trump_holder.map(u32::from),
        table_cards,
        table_lays,
        trick_size: v.trick_size.map(u32::from),
        leader: v.leader.map(u32::from),
        out: v.out.iter().map(|&s| u32::from(s)).collect(),
        loser: v.loser.map(u32::from),
        drawn_by_limit: v.drawn,
        history: history(live, v.seat, history_after, false),
        result,
        phase_two_version: phase_two_version(live),
    }
}

/// The version of the event that ended phase one, once phase two began
/// with a trump suit (the engine records the start right after it).
fn phase_two_version(live: &Live) -> Option<u64> {
    live.game
        .history()
        .iter()
        .zip(&live.entries)
        .find(|(record, _)| matches!(record, Record::PhaseTwo { .. }))
        .map(|(_, entry)| entry.version)
}

fn table(entries: &[TableEntry], phase: Phase) -> (Vec<v1::TableCard>, Vec<v1::Lay>) {
    if phase == Phase::One {
        let cards = entries
            .iter()
            .flat_map(|e| {
                e.cards.ascending().map(move |c| v1::TableCard {
                    seat: u32::from(e.seat),
                    card: c.to_string(),
                    is_sluff: e.sluff,
                })
            })
            .collect();
        (cards, Vec::new())
    } else {
        let lays = entries
            .iter()
            .map(|e| v1::Lay {
                seat: u32::from(e.seat),
                cards: ascending(e.cards),
            })
            .collect();
        (Vec::new(), lays)
    }
}

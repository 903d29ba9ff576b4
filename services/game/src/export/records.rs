//! One finished game's records, rebuilt from its log the way the service
//! rebuilds every game (`Live`): the game for researchers and, if asked,
//! each seat's views at every version, each built by `convert::view` for
//! that seat alone, as GetView built it.

use std::iter;
use std::sync::Arc;

use skit_api::{ApiError, timestamp};
use skit_engine::Action;
use skit_proto::v1::{
    ExportRecord, ExportedGame, ExportedSeat, SeatInfo, SeatViews, View, export_record::Record,
};
use skit_store::{Finished, Game, StoredEvent};

use crate::cached::Cached;
use crate::convert;
use crate::live::{Corrupt, Live};

/// Whose accounts a record names: the caller's own seats, or every seat
/// for the operator.
#[derive(Debug, Clone, Copy)]
pub(super) struct Shown {
    pub caller: i64,
    pub every_account: bool,
}

impl Shown {
    fn account(self, id: Option<&str>) -> bool {
        let id = id.and_then(|id| id.parse::<i64>().ok());
        id.is_some_and(|id| self.every_account || id == self.caller)
    }
}

/// The game's records: its own, then (with `seat_views`) one per seat.
/// `None` for a game its log shows is not over or voided, which the store
/// lists only if it is inconsistent: such a game is never exported.
pub(super) fn of_game(
    row: &Game,
    events: &[StoredEvent],
    finished: &Finished,
    seat_views: bool,
    shown: Shown,
) -> Result<Option<Vec<ExportRecord>>, ApiError> {
    let corrupt = |e: Corrupt| ApiError::internal("cannot replay a game to export it", &e);
    let (first, rest) = events.split_at(events.len().min(1));
    let live = Live::replay(row, first).map_err(corrupt)?;
    if live.sealed {
        // Its full log would show the deal whose seed is kept secret.
        return Ok(None);
    }
    let rules = Arc::new(skit_api::rules_message(live.game.rules()));
    let mut game = Cached::new(live, rules);
    let seats = if seat_views {
        usize::from(game.game.state().players())
    } else {
        0
    };
    let mut views: Vec<Vec<View>> = vec![Vec::new(); seats];
    add_views(&game, &mut views, None, shown);
    for event in rest {
        let seen = game.version;
        game.apply_event(event).map_err(corrupt)?;
        add_views(&game, &mut views, Some(seen), shown);
    }
    if !game.is_over() || game.void.is_some() {
        tracing::warn!(game_id = %row.id, "marked over, but its log is not a finished game: not exported");
        return Ok(None);
    }
    let record = |record| ExportRecord {
        record: Some(record),
    };
    let mut records = vec![record(Record::Game(exported(&game, row, finished, shown)))];
    records.extend(views.into_iter().zip(0u32..).map(|(views, seat)| {
        record(Record::SeatViews(SeatViews {
            game_id: row.id.to_string(),
            seat,
            views,
        }))
    }));
    Ok(Some(records))
}

/// Each seat's view at the game's version, its history since `after`.
fn add_views(game: &Cached, views: &mut [Vec<View>], after: Option<u64>, shown: Shown) {
    for (list, seat) in views.iter_mut().zip(0..) {
        let mut view = convert::view(game, Some(seat), after);
        for info in &mut view.seats {
            hide(info, shown);
        }
        list.push(view);
    }
}

/// A seat as the caller may see it in an export: no rating (today's, not
/// the game's), and no account unless [`Shown`] says so.
fn hide(info: &mut SeatInfo, shown: Shown) {
    info.rating = None;
    if !shown.account(info.account_id.as_deref()) {
        info.account_id = None;
        info.name = None;
    }
}

fn exported(game: &Cached, row: &Game, finished: &Finished, shown: Shown) -> ExportedGame {
    // The spectator's last view holds the result and the seats; no history.
    let last = convert::view(game, None, Some(game.version));
    let state = game.game.state();
    let actions = iter::once(Action::Shuffle(game.deck.clone()))
        .chain(game.log.iter().map(|(_, action)| action.clone()))
        .map(|action| action.to_json().to_string())
        .collect();
    let seats = last
        .seats
        .into_iter()
        .map(|mut info| {
            hide(&mut info, shown);
            ExportedSeat {
                seat: info.seat,
                account_id: info.account_id,
                name: info.name,
                is_bot: info.is_bot,
            }
        })
        .collect();
    ExportedGame {
        game_id: game.id.to_string(),
        rules_version: format!("skit-engine {}", skit_engine::VERSION),
        shuffle_algorithm: skit_fairness::ALGORITHM.to_owned(),
        rules: Some(game.rules_message.as_ref().clone()),
        ruleset_key: row.ruleset_key.clone(),
        players: u32::from(state.players()),
        dealer: u32::from(state.dealer()),
        rated: game.rated,
        shuffle_commitment: game.commitment.clone(),
        seed: game.revealed_seed().unwrap_or_default(),
        actions,
        events: convert::history(game, None, None, true),
        result: last.result,
        seats,
        created_at: Some(timestamp(row.created_at)),
        finished_at: Some(timestamp(finished.finished_at)),
        tournament_id: finished.tournament_id.clone(),
    }
}

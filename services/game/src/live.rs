//! One game in memory: the engine's `Game` rebuilt from the event log, plus
//! what the service knows about it (seats, seed, move ids) and what views
//! need per history record (its version, what each seat privately got).
//!
//! Every change goes through [`Live::apply_event`], for an event just
//! appended here, appended by another instance, or replayed after a
//! restart, so the cache and a replay cannot disagree. Commands are checked
//! on a copy of the engine state and become events ([`Live::plan_move`]);
//! applying a stored event cannot be refused by the rules.

mod absent;
mod clocks;
mod ending;
mod forfeit;
mod play_on;
#[cfg(test)]
mod tests;
mod turns;
mod void;

use std::collections::HashMap;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use skit_api::ApiError;
use skit_engine::{
    Action, Card, CardSet, Game, Move, MoveKind, Phase, Record, Ruleset, Seat, SeatSet, State,
};
use skit_store::{AccountId, GameId, NewEvent, StoredEvent};
use time::OffsetDateTime;

use crate::clock::{Clocks, TimeControl};
use crate::shuffle::{Seed, Shuffles};

pub use ending::{Ending, Forfeit, Forfeited, Void};
pub use turns::to_act_at_start;

/// Event kinds in the log.
pub mod kind {
    /// Event 0: the resolved ruleset, players, dealer, commitment, seats.
    pub const CREATED: &str = "created";
    /// A seat was taken.
    pub const JOINED: &str = "joined";
    /// A seat's action, with the client's move id.
    pub const MOVE: &str = "move";
    /// A chance outcome drawn from the seed.
    pub const SHUFFLE: &str = "shuffle";
    /// The game is over: found after a game's last move in logs that have
    /// one, and applied as part of that move. Never appended: the move or
    /// chance outcome that ends a game ends it by itself, so every version
    /// is an event the history shows.
    pub const END: &str = "end";
    /// A seat resigned (with the client's move id): it lost, the game is over.
    pub const RESIGN: &str = "resign";
    /// A seat's clock ran out under `lose`: it lost, the game is over.
    pub const TIMEOUT: &str = "timeout";
    /// An operator voided the game (with the reason): it is over, with no
    /// result.
    pub const VOID: &str = "void";
    /// An operator disabled the holder of a seat: the clock rule plays it.
    pub const ABSENT: &str = "absent";
    /// A seat's clock ran out under `forfeit`: it has the last place, the
    /// clock plays it from then on, and the game goes on.
    pub const FORFEIT: &str = "forfeit";
}

/// Who holds a seat, as everyone may see.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Holder {
    pub account_id: i64,
    pub name: String,
    pub bot: bool,
}

/// The payload of event 0. Holds neither the seed nor the deck.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Created {
    pub rules: Value,
    pub players: u8,
    pub dealer: Seat,
    pub commitment: String,
    pub rated: bool,
    pub seats: Vec<Option<Holder>>,
    /// Absent: no clock (and in games stored before clocks existed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_control: Option<TimeControl>,
    /// The operator sealed the seed: it is never revealed, nor the full
    /// log, even once the game is over (whoever chose the seed publishes
    /// it; docs/fairness.md, "Sealed games").
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub sealed: bool,
}

#[derive(Debug, Serialize, Deserialize)]
struct Joined {
    seat: usize,
    holder: Holder,
}

/// Per engine history record: when it happened and what each seat
/// privately received with it.
#[derive(Debug, Clone)]
pub struct Entry {
    pub version: u64,
    /// When the event that made it was stored.
    pub at: OffsetDateTime,
    /// Per seat; empty when nobody received anything private.
    pub received: Vec<CardSet>,
    /// A shuffle's full order, for the log revealed after the end.
    pub order: Option<Vec<Card>>,
    /// The service played it because the seat's clock ran out.
    pub by_clock: bool,
}

/// A move applied under a client's move id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveRecord {
    pub seat: Seat,
    pub kind: MoveKind,
    /// The game's version once the move and its consequences were stored.
    pub version: u64,
}

/// A stored event this code cannot apply: a bug or a foreign write.
#[derive(Debug, thiserror::Error)]
#[error("event {seq} of game {game}: {message}")]
pub struct Corrupt {
    pub game: GameId,
    pub seq: u64,
    pub message: String,
}

#[derive(Debug)]
pub struct Live {
    pub id: GameId,
    pub game: Game,
    /// The seq of the last applied event.
    pub version: u64,
    pub seats: Vec<Option<Holder>>,
    pub rated: bool,
    pub commitment: String,
    /// Whether the seed and the full log stay hidden after the end.
    pub sealed: bool,
    /// When the game was created (event 0, the deal).
    pub created_at: OffsetDateTime,
    seed: Seed,
    pub deck: Vec<Card>,
    /// Each seat's hand right after the deal.
    pub dealt: Vec<CardSet>,
    /// Aligned with `game.history()`.
    pub entries: Vec<Entry>,
    /// Every action after the deal, with the version it made.
    pub log: Vec<(u64, Action)>,
    moves: HashMap<String, MoveRecord>,
    last_move: Option<String>,
    shuffles: u64,
    /// The seats' clocks; `None` in a game without a time control.
    pub clocks: Option<Clocks>,
    /// Set when a seat resigned or lost on time.
    pub ending: Option<Ending>,
    /// Seats that forfeited and play on by the clock, in the order they
    /// forfeited (`live/forfeit.rs`).
    pub forfeits: Vec<Forfeited>,
    /// Set when an operator voided the game.
    pub void: Option<Void>,
    /// Seats whose holder an operator disabled (`absent.rs`).
    pub absent: SeatSet,
    /// When the last seat was marked absent.
    absent_at: Option<OffsetDateTime>,
}

impl Live {
    /// Checks a new game by dealing it; returns event 0's payload.
    pub fn created(
        rules: &Ruleset,
        players: u8,
        dealer: Option<Seat>,
        seats: Vec<Option<Holder>>,
        rated: bool,
        seed: &Seed,
        time_control: Option<TimeControl>,
    ) -> Result<Created, ApiError> {
        rules.check_players(players)?;
        if let Some(d) = dealer.filter(|&d| d >= players) {
            return Err(ApiError::invalid(
                "dealer",
                format!("no seat {d} at {players} players"),
            ));
        }
        let (dealer, deck) = seed.deal(players, dealer);
        Game::deal(*rules, players, dealer, &deck)
            .map_err(|e| ApiError::invalid("rules", e.to_string()))?;
        Ok(Created {
            rules: rules.to_json(),
            players,
            dealer,
            commitment: seed.commitment(),
            rated,
            seats,
            time_control,
            sealed: false,
        })
    }

    /// Rebuilds a game from its stored row and its log.
    pub fn replay(row: &skit_store::Game, events: &[StoredEvent]) -> Result<Live, Corrupt> {
        let corrupt = |seq, message: String| Corrupt {
            game: row.id,
            seq,
            message,
        };
        let first = events
            .first()
            .filter(|e| e.seq == 0 && e.kind == kind::CREATED)
            .ok_or_else(|| corrupt(0, "no creation event".into()))?;
        let created: Created =
            serde_json::from_value(first.payload.clone()).map_err(|e| corrupt(0, e.to_string()))?;
        let seed = Seed::from_hex(row.seed.expose()).map_err(|e| corrupt(0, e.to_string()))?;
        let rules = Ruleset::from_json(&created.rules).map_err(|e| corrupt(0, e.to_string()))?;
        let (dealer, deck) = seed.deal(created.players, Some(created.dealer));
        let game = Game::deal(rules, created.players, dealer, &deck)
            .map_err(|e| corrupt(0, e.to_string()))?;
        let dealt = (0..created.players).map(|s| game.state().hand(s)).collect();
        let clocks = created
            .time_control
            .map(|control| Clocks::new(control, created.players));
        let mut live = Live {
            id: row.id,
            game,
            version: 0,
            seats: created.seats,
            rated: created.rated,
            commitment: created.commitment,
            sealed: created.sealed,
            created_at: first.created_at,
            seed,
            deck,
            dealt,
            entries: Vec::new(),
            log: Vec::new(),
            moves: HashMap::new(),
            last_move: None,
            shuffles: 0,
            clocks,
            ending: None,
            forfeits: Vec::new(),
            void: None,
            absent: SeatSet::EMPTY,
            absent_at: None,
        };
        let running = live.running_clocks();
        if let Some(clocks) = live.clocks.as_mut() {
            clocks.advance(first.created_at, None, running);
        }
        for event in &events[1..] {
            live.apply_event(event)?;
        }
        Ok(live)
    }

    /// Applies the next stored event; events already applied are skipped,
    /// so catching up from a notice is idempotent.
    pub fn apply_event(&mut self, event: &StoredEvent) -> Result<(), Corrupt> {
        if event.seq <= self.version {
            return Ok(());
        }
        let game = self.id;
        let corrupt = |message: String| Corrupt {
            game,
            seq: event.seq,
            message,
        };
        if event.seq != self.version + 1 {
            return Err(corrupt(format!("expected event {}", self.version + 1)));
        }
        match event.kind.as_str() {
            kind::JOINED => {
                let joined: Joined = serde_json::from_value(event.payload.clone())
                    .map_err(|e| corrupt(e.to_string()))?;
                let seat = self
                    .seats
                    .get_mut(joined.seat)
                    .ok_or_else(|| corrupt("no such seat".into()))?;
                *seat = Some(joined.holder);
                self.last_move = None;
            }
            kind::MOVE | kind::SHUFFLE => {
                let action = Action::from_json(&event.payload["action"])
                    .map_err(|e| corrupt(e.to_string()))?;
                if self.ending.is_some() || self.void.is_some() {
                    return Err(corrupt("an action after a forfeit or void".into()));
                }
                let by_clock = event.payload["by_clock"].as_bool().unwrap_or(false);
                self.apply_action(event.seq, event.created_at, &action, by_clock)
                    .map_err(|e| corrupt(e.to_string()))?;
                match (&action, &event.move_id) {
                    (Action::Move(m), Some(id)) => {
                        let record = MoveRecord {
                            seat: m.seat,
                            kind: m.kind,
                            version: event.seq,
                        };
                        self.moves.insert(id.clone(), record);
                        self.last_move = Some(id.clone());
                    }
                    (Action::Move(_), None) => self.last_move = None,
                    (Action::Shuffle(_), _) => {
                        self.shuffles += 1;
                        self.extend_last_move(event.seq);
                    }
                }
            }
            kind::END => self.extend_last_move(event.seq),
            kind::RESIGN | kind::TIMEOUT => self.apply_forfeit(event).map_err(corrupt)?,
            kind::VOID => self.apply_void(event).map_err(corrupt)?,
            kind::ABSENT => self.apply_absent(event).map_err(corrupt)?,
            kind::FORFEIT => self.apply_play_on_forfeit(event).map_err(corrupt)?,
            other => return Err(corrupt(format!("unknown event kind {other:?}"))),
        }
        self.version = event.seq;
        self.tick_clocks(event);
        Ok(())
    }

    /// Events a move's consequences are stored with belong to its result.
    fn extend_last_move(&mut self, seq: u64) {
        if let Some(record) = self
            .last_move
            .as_ref()
            .and_then(|id| self.moves.get_mut(id))
        {
            record.version = seq;
        }
    }

    fn apply_action(
        &mut self,
        seq: u64,
        at: OffsetDateTime,
        action: &Action,
        by_clock: bool,
    ) -> Result<(), skit_engine::MoveError> {
        let players = self.game.state().players();
        let before: Vec<CardSet> = (0..players).map(|s| self.game.state().hand(s)).collect();
        let first_new = self.game.history().len();
        self.game.apply(action)?;
        let new = &self.game.history()[first_new..];
        // What a shuffle gave each seat is private even when the shuffled
        // set is public (SPEC 6); what a move gave is private beyond what
        // its record shows.
        let public = match action {
            Action::Shuffle(_) => CardSet::EMPTY,
            Action::Move(_) => new
                .iter()
                .fold(CardSet::EMPTY, |acc, r| acc | public_cards(r)),
        };
        let received: Vec<CardSet> = (0..players)
            .map(|s| (self.game.state().hand(s) - before[s as usize]) - public)
            .collect();
        let received = if received.iter().all(|c| c.is_empty()) {
            Vec::new()
        } else {
            received
        };
        let order = match action {
            Action::Shuffle(order) => Some(order.clone()),
            Action::Move(_) => None,
        };
        for i in 0..new.len() {
            self.entries.push(Entry {
                version: seq,
                at,
                received: if i == 0 { received.clone() } else { Vec::new() },
                order: if i == 0 { order.clone() } else { None },
                by_clock,
            });
        }
        self.log.push((seq, action.clone()));
        Ok(())
    }

    /// Checks `seat` playing `kind` and returns the events to append: the
    /// move and the chance outcomes it leads to (none once it ends the game).
    pub fn plan_move(
        &self,
        seat: Seat,
        kind: MoveKind,
        move_id: &str,
    ) -> Result<Vec<NewEvent>, ApiError> {
        self.check_not_forfeited(seat)?;
        let (event, state) = self.plan_action(seat, kind, false)?;
        let mut events = vec![event.with_move_id(move_id)];
        self.chance_events(state, &mut events)?;
        Ok(events)
    }

    /// Checks `seat` playing `kind` (`by_clock`: for the seat, because its
    /// clock ran out) and returns the move event alone.
    fn plan_action(
        &self,
        seat: Seat,
        kind: MoveKind,
        by_clock: bool,
    ) -> Result<(NewEvent, State), ApiError> {
        if self.ending.is_some() || self.void.is_some() {
            return Err(skit_engine::MoveError::GameOver.into());
        }
        let mut state = *self.game.state();
        let action = Action::Move(Move::new(seat, kind));
        state.apply(self.game.rules(), &action)?;
        let mut payload = json!({ "action": action.to_json() });
        if by_clock {
            payload["by_clock"] = json!(true);
        }
        Ok((NewEvent::new(kind::MOVE, payload), state))
    }

    /// The move the clock makes for `seat`, with its consequences.
    pub fn plan_clock_move(&self, seat: Seat, kind: MoveKind) -> Result<Vec<NewEvent>, ApiError> {
        let (event, state) = self.plan_action(seat, kind, true)?;
        let mut events = vec![event];
        self.chance_events(state, &mut events)?;
        Ok(events)
    }

    /// The chance outcomes the current state awaits, e.g. right after the
    /// deal.
    pub fn pending_events(&self) -> Result<Vec<NewEvent>, ApiError> {
        let mut events = Vec::new();
        self.chance_events(*self.game.state(), &mut events)?;
        Ok(events)
    }

    fn chance_events(&self, mut state: State, events: &mut Vec<NewEvent>) -> Result<(), ApiError> {
        let mut k = self.shuffles;
        while !state.awaited_cards().is_empty() {
            k += 1;
            let action = Action::Shuffle(self.seed.outcome(k, state.awaited_cards()));
            state
                .apply(self.game.rules(), &action)
                .map_err(|e| ApiError::internal("the engine refused its own chance outcome", &e))?;
            events.push(NewEvent::new(
                kind::SHUFFLE,
                json!({ "action": action.to_json() }),
            ));
        }
        Ok(())
    }

    pub fn move_by_id(&self, move_id: &str) -> Option<&MoveRecord> {
        self.moves.get(move_id)
    }

    pub fn is_over(&self) -> bool {
        self.ending.is_some() || self.void.is_some() || self.game.state().phase() == Phase::Over
    }

    /// The phase, `Over` after a forfeit or a void too.
    pub fn phase(&self) -> Phase {
        if self.ending.is_some() || self.void.is_some() {
            Phase::Over
        } else {
            self.game.state().phase()
        }
    }

    /// When the game ended: at its forfeit, its void, or the action that
    /// ended it by the rules.
    pub fn ended_at(&self) -> Option<OffsetDateTime> {
        if let Some(end) = &self.ending {
            Some(end.at)
        } else if let Some(void) = &self.void {
            Some(void.at)
        } else if self.game.state().phase() == Phase::Over {
            self.entries.last().map(|e| e.at)
        } else {
            None
        }
    }

    /// Whether the seed and the full log may be shown: the game is over
    /// and was not sealed.
    pub fn revealed(&self) -> bool {
        self.is_over() && !self.sealed
    }

    /// The seed, once it may be revealed.
    pub fn revealed_seed(&self) -> Option<String> {
        self.revealed().then(|| self.seed.to_hex())
    }

    pub fn holds(&self, account: AccountId, seat: Seat) -> bool {
        self.seats
            .get(usize::from(seat))
            .and_then(Option::as_ref)
            .is_some_and(|h| h.account_id == account.0)
    }

    pub fn seats_of(&self, account: AccountId) -> Vec<Seat> {
        (0..self.game.state().players())
            .filter(|&s| self.holds(account, s))
            .collect()
    }

    pub fn lowest_open_seat(&self) -> Option<usize> {
        self.seats.iter().position(Option::is_none)
    }

    pub fn joined_event(seat: usize, holder: Holder) -> NewEvent {
        NewEvent::new(kind::JOINED, json!(Joined { seat, holder }))
    }
}

/// The cards a history record shows everyone.
pub fn public_cards(record: &Record) -> CardSet {
    match record {
        Record::Play { cards, .. }
        | Record::Pickup { cards, .. }
        | Record::Sluff { cards, .. }
        | Record::Bank { cards, .. }
        | Record::Shuffle { cards } => *cards,
        Record::Chance { card, .. } | Record::Rob { card, .. } => CardSet::single(*card),
        Record::Deal { turned, .. } => turned.map(CardSet::single).unwrap_or_default(),
        Record::Pass { .. }
        | Record::Claim { .. }
        | Record::PhaseTwo { .. }
        | Record::End { .. } => CardSet::EMPTY,
    }
}

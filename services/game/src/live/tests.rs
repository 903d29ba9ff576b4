//! The game aggregate without a database, given / when / then: given the
//! events of a game's log, when a command is planned, then these events or
//! this refusal. Planned events are then appended as the store would number
//! them, so each test also checks that applying them one by one and a
//! replay of the whole log agree.

use serde_json::json;
use skit_api::ApiError;
use skit_engine::{Action, Card, CardSet, MoveKind, Phase, Preset, Ruleset, Seat};
use skit_store::{AccountId, GameId, GameStatus, NewEvent, StoredEvent, ToAct};
use time::OffsetDateTime;

use super::{Forfeit, Holder, Live, MoveRecord, kind, to_act_at_start};
use crate::shuffle::Seed;

/// Every game here deals from this seed, so each test sees the same cards.
const SEED: [u8; 32] = [7; 32];

/// A game's log so far, as the store hands it back.
struct Given {
    row: skit_store::Game,
    log: Vec<StoredEvent>,
}

/// Given a new skitgubbe game of `players` seats, dealt by seat 0, with
/// the last `open` seats still open.
fn given_a_game(players: u8, open: u8) -> Given {
    let seed = Seed::from_bytes(SEED);
    let seats = (0..players)
        .map(|s| (s < players - open).then(|| holder(s)))
        .collect::<Vec<_>>();
    let rules = Ruleset::preset(Preset::Skitgubbe);
    let created = Live::created(&rules, players, Some(0), seats.clone(), false, &seed, None)
        .expect("a valid game");
    let row = skit_store::Game {
        id: GameId(uuid::Uuid::from_u128(1)),
        ruleset: created.rules.clone(),
        ruleset_key: rules.key(),
        created_by: AccountId(1),
        seats: seats
            .iter()
            .map(|h| h.as_ref().map(|h| AccountId(h.account_id)))
            .collect(),
        seed: skit_store::Seed::new(seed.to_hex()),
        commitment: created.commitment.clone(),
        status: GameStatus::Active,
        rated: false,
        created_at: OffsetDateTime::UNIX_EPOCH,
        finished_at: None,
    };
    let given = Given {
        row,
        log: Vec::new(),
    }
    .and(vec![NewEvent::new(kind::CREATED, json!(created))]);
    assert_eq!(
        to_act_at_start(&created, &seed),
        Some(to_act_now(&given.live())),
        "event 0's turn index"
    );
    // CreateGame appends the chance outcomes the deal awaits right away.
    let pending = given.live().pending_events().expect("the deal's outcomes");
    given.and(pending)
}

/// Who may act in `live` as it is, as the turn index says it.
/// Every account seated in the game, once each, in seat order.
fn seated_accounts(live: &Live) -> Vec<AccountId> {
    let mut accounts: Vec<AccountId> = Vec::new();
    for holder in live.seats.iter().flatten() {
        if !accounts.contains(&AccountId(holder.account_id)) {
            accounts.push(AccountId(holder.account_id));
        }
    }
    accounts
}

fn to_act_now(live: &Live) -> ToAct {
    let seats = live.seats_to_act();
    let mut accounts: Vec<AccountId> = (0..live.game.state().players())
        .filter(|&s| seats.contains(s))
        .filter_map(|s| live.seats[usize::from(s)].as_ref())
        .map(|h| AccountId(h.account_id))
        .collect();
    accounts.dedup();
    ToAct {
        seats: u64::from(seats.bits()),
        accounts: accounts.into(),
    }
}

fn holder(seat: Seat) -> Holder {
    Holder {
        account_id: i64::from(seat) + 10,
        name: format!("p{seat}"),
        bot: false,
    }
}

impl Given {
    /// The log with `events` appended, numbered as the store numbers them.
    fn and(mut self, events: Vec<NewEvent>) -> Given {
        for event in events {
            let seq = self.log.len() as u64;
            self.log.push(stored(self.row.id, seq, event));
        }
        self
    }

    /// The game rebuilt from the whole log, as after a restart.
    fn live(&self) -> Live {
        Live::replay(&self.row, &self.log).unwrap_or_else(|e| panic!("replay: {e}"))
    }

    /// Plans `command` on the game as the log leaves it.
    fn when(self, command: impl FnOnce(&Live) -> Result<Vec<NewEvent>, ApiError>) -> Then {
        let live = self.live();
        let result = command(&live);
        Then {
            given: self,
            result,
        }
    }
}

fn stored(game: GameId, seq: u64, event: NewEvent) -> StoredEvent {
    StoredEvent {
        game_id: game,
        seq,
        kind: event.kind,
        payload: event.payload,
        move_id: event.move_id,
        created_at: OffsetDateTime::UNIX_EPOCH,
    }
}

struct Then {
    given: Given,
    result: Result<Vec<NewEvent>, ApiError>,
}

impl Then {
    /// Asserts the planned events' kinds and returns the log with them
    /// appended, after checking that applying them to the game one by one
    /// ends where a replay of the whole log does.
    fn then_expect_events(self, kinds: &[&str]) -> Given {
        let events = match self.result {
            Ok(events) => events,
            Err(e) => panic!("expected events {kinds:?}, got the refusal {e}"),
        };
        let planned: Vec<&str> = events.iter().map(|e| e.kind.as_str()).collect();
        assert_eq!(planned, kinds);
        let mut live = self.given.live();
        // The turn index stored with the events says who may act after
        // them before they are applied.
        let predicted = live.to_act_after(&events).expect("readable events");
        let was_over = live.is_over();
        let first = self.given.log.len();
        let given = self.given.and(events);
        for event in &given.log[first..] {
            live.apply_event(event).expect("a planned event applies");
        }
        let replayed = given.live();
        let mut expected = to_act_now(&replayed);
        if replayed.is_over() && !was_over {
            // Nobody may act after the end, but its notice names everyone
            // seated, so that their turn long polls wake.
            expected.accounts = seated_accounts(&replayed).into();
        }
        assert_eq!(predicted, expected);
        assert_eq!(live.version, replayed.version);
        assert_eq!(live.game.state(), replayed.game.state());
        assert_eq!(live.phase(), replayed.phase());
        given
    }

    /// Asserts the command was refused with the stable reason `code`, in a message
    /// that says `says`; returns the log, which a refusal leaves as it was.
    fn then_expect_error(self, code: &str, says: &str) -> Given {
        match self.result {
            Ok(events) => panic!(
                "expected the refusal {code}, got events {:?}",
                events.iter().map(|e| &e.kind).collect::<Vec<_>>()
            ),
            Err(e) => {
                assert_eq!(e.reason(), code, "{e}");
                assert!(e.to_string().contains(says), "{e} does not say {says:?}");
            }
        }
        self.given
    }

    /// A move event with the client's move id, then only the chance
    /// outcomes it leads to, which carry none.
    fn then_expect_move(self) -> Given {
        let kinds: Vec<&'static str> = match &self.result {
            Ok(events) => events
                .iter()
                .map(|e| match e.kind.as_str() {
                    kind::MOVE => kind::MOVE,
                    kind::SHUFFLE => kind::SHUFFLE,
                    other => panic!("a move planned a {other} event"),
                })
                .collect(),
            Err(e) => panic!("expected a move, got the refusal {e}"),
        };
        assert_eq!(kinds.first(), Some(&kind::MOVE));
        assert!(!kinds[1..].contains(&kind::MOVE));
        let ids: Vec<Option<&str>> = self
            .result
            .iter()
            .flatten()
            .map(|e| e.move_id.as_deref())
            .collect();
        assert!(ids[0].is_some() && ids[1..].iter().all(Option::is_none));
        self.then_expect_events(&kinds)
    }
}

/// The first move the rules allow now.
fn first_legal(live: &Live) -> (Seat, MoveKind) {
    let moves = live.game.legal_moves();
    let first = moves.first().expect("someone may act");
    (first.seat, first.kind)
}

#[test]
fn replaying_the_creation_deals_from_the_seed() {
    let given = given_a_game(3, 0);
    let live = given.live();
    let deck = skit_fairness::deck(&Seed::from_bytes(SEED));
    let dealt = skit_engine::Game::deal(Ruleset::preset(Preset::Skitgubbe), 3, 0, &deck)
        .expect("the same deal");
    assert_eq!(live.version, given.log.len() as u64 - 1);
    assert_eq!(live.phase(), Phase::One);
    for seat in 0..3 {
        assert_eq!(live.dealt[usize::from(seat)], dealt.state().hand(seat));
    }
    assert_eq!(live.seats[2], Some(holder(2)));
    assert_eq!(live.revealed_seed(), None, "the seed is secret during play");
    assert_eq!(given.live().game.state(), live.game.state());
}

#[test]
fn a_legal_move_becomes_one_move_event_under_its_move_id() {
    let given = given_a_game(3, 0);
    let (seat, kind) = first_legal(&given.live());
    let given = given
        .when(|live| live.plan_move(seat, kind, "m1"))
        .then_expect_move();
    let live = given.live();
    let last = given.log.last().expect("events");
    assert_eq!(
        live.move_by_id("m1"),
        Some(&MoveRecord {
            seat,
            kind,
            version: last.seq,
        }),
        "a resent m1 is answered with the version after its consequences"
    );
}

#[test]
fn a_move_out_of_turn_is_refused_naming_the_rule() {
    let given = given_a_game(3, 0);
    let live = given.live();
    let waiting = (0..3)
        .find(|&s| !live.game.to_act().contains(s))
        .expect("a seat not to act");
    let card = live.game.state().hand(waiting).first().expect("a card");
    given
        .when(|live| live.plan_move(waiting, MoveKind::Play(CardSet::single(card)), "m1"))
        .then_expect_error("not_your_turn", &format!("seat {waiting}"));
}

#[test]
fn a_card_the_seat_does_not_hold_is_refused() {
    let given = given_a_game(3, 0);
    let live = given.live();
    let (seat, _) = first_legal(&live);
    let other = (seat + 1) % 3;
    let card: Card = live.game.state().hand(other).first().expect("a card");
    given
        .when(|live| live.plan_move(seat, MoveKind::Play(CardSet::single(card)), "m1"))
        .then_expect_error("card_not_held", &card.to_string());
}

#[test]
fn applying_an_event_again_changes_nothing() {
    let given = given_a_game(2, 0);
    let (seat, kind) = first_legal(&given.live());
    let given = given
        .when(|live| live.plan_move(seat, kind, "m1"))
        .then_expect_move();
    let mut live = given.live();
    let before = (live.version, *live.game.state(), live.log.len());
    for event in &given.log {
        live.apply_event(event).expect("an event already applied");
    }
    assert_eq!((live.version, *live.game.state(), live.log.len()), before);
}

#[test]
fn an_event_out_of_sequence_is_refused() {
    let given = given_a_game(2, 0);
    let mut live = given.live();
    let (seat, kind) = first_legal(&live);
    let events = live.plan_move(seat, kind, "m1").expect("legal");
    let next = events.into_iter().next().expect("a move");
    let gap = stored(given.row.id, live.version + 2, next);
    let e = live.apply_event(&gap).expect_err("a gap in the log");
    assert!(e.to_string().contains("expected event"), "{e}");
    assert_eq!(live.version, given.live().version);
}

#[test]
fn a_stored_move_the_rules_refuse_is_reported_not_applied() {
    let given = given_a_game(3, 0);
    let mut live = given.live();
    let waiting = (0..3)
        .find(|&s| !live.game.to_act().contains(s))
        .expect("a seat not to act");
    let card = live.game.state().hand(waiting).first().expect("a card");
    let action = Action::Move(skit_engine::Move::new(
        waiting,
        MoveKind::Play(CardSet::single(card)),
    ));
    let foreign = NewEvent::new(kind::MOVE, json!({ "action": action.to_json() }));
    let seq = live.version + 1;
    let e = live
        .apply_event(&stored(given.row.id, seq, foreign))
        .expect_err("an illegal stored move");
    assert!(e.to_string().contains(&format!("event {seq}")), "{e}");
    assert_eq!(live.game.state(), given.live().game.state());
}

#[test]
fn an_unknown_event_kind_is_refused() {
    let given = given_a_game(2, 0);
    let mut live = given.live();
    let odd = NewEvent::new("teleported", json!({}));
    let e = live
        .apply_event(&stored(given.row.id, live.version + 1, odd))
        .expect_err("an unknown kind");
    assert!(e.to_string().contains("teleported"), "{e}");
}

#[test]
fn after_a_resignation_the_game_is_over_and_takes_no_move() {
    let given = given_a_game(3, 0)
        .when(|live| live.plan_forfeit(1, Forfeit::Resigned, Some("r1")))
        .then_expect_events(&[kind::RESIGN]);
    let live = given.live();
    assert_eq!(live.phase(), Phase::Over);
    let ending = live.resignation_by_id("r1").expect("the resignation");
    assert_eq!((ending.seat, ending.reason), (1, Forfeit::Resigned));
    assert!(
        live.revealed_seed().is_some(),
        "the seed is revealed at the end"
    );
    let (seat, kind) = first_legal(&live);
    given
        .when(|live| live.plan_move(seat, kind, "m1"))
        .then_expect_error("game_over", "over");
}

#[test]
fn a_second_forfeit_is_refused() {
    given_a_game(3, 0)
        .when(|live| live.plan_forfeit(2, Forfeit::Timeout, None))
        .then_expect_events(&[kind::TIMEOUT])
        .when(|live| live.plan_forfeit(0, Forfeit::Resigned, Some("r1")))
        .then_expect_error("failed_precondition", "is over");
}

#[test]
fn nobody_forfeits_before_every_seat_is_taken() {
    let given = given_a_game(3, 1)
        .when(|live| live.plan_forfeit(0, Forfeit::Resigned, Some("r1")))
        .then_expect_error("failed_precondition", "a seat is open")
        .and(vec![Live::joined_event(2, holder(2))]);
    let live = given.live();
    assert_eq!(live.lowest_open_seat(), None);
    assert!(live.holds(AccountId(12), 2));
    given
        .when(|live| live.plan_forfeit(0, Forfeit::Resigned, Some("r1")))
        .then_expect_events(&[kind::RESIGN]);
}

#[test]
fn the_move_that_ends_the_game_is_its_last_event() {
    let (given, live) = played_to_the_end();
    // The last event is a seat's action or a chance outcome, which the
    // history shows at the game's final version: no event after it.
    let last = given.log.last().expect("events");
    assert!(
        [kind::MOVE, kind::SHUFFLE].contains(&last.kind.as_str()),
        "{}",
        last.kind
    );
    assert!(given.log.iter().all(|e| e.kind != kind::END));
    assert_eq!(live.version, last.seq);
    assert_eq!(live.entries.last().map(|e| e.version), Some(live.version));
    let replayed = given.live();
    assert_eq!(replayed.version, live.version);
    assert_eq!(replayed.game.state(), live.game.state());
    assert_eq!(live.entries.len(), live.game.history().len());
    assert!(live.game.state().loser().is_some() || live.game.state().drawn());
    given
        .when(|live| live.plan_move(0, MoveKind::Pass, "late"))
        .then_expect_error("game_over", "over");
}

#[test]
fn a_log_with_an_end_event_still_replays() {
    let (given, live) = played_to_the_end();
    let last_move = given
        .log
        .iter()
        .rev()
        .find_map(|e| e.move_id.clone())
        .expect("a move with an id");
    let state = live.game.state();
    let end = json!({ "loser": state.loser(), "drawn": state.drawn() });
    let given = given.and(vec![NewEvent::new(kind::END, end)]);

    let replayed = given.live();

    assert_eq!(replayed.version, live.version + 1);
    assert_eq!(replayed.game.state(), live.game.state());
    assert!(replayed.is_over());
    // The end belongs to the move that caused it: resending that move
    // answers with the version after the end.
    assert_eq!(
        replayed.move_by_id(&last_move).map(|m| m.version),
        Some(live.version + 1)
    );
}

/// A three-seat game played with the first legal move to its end, applied
/// as the service does, one append at a time (a replay per move would make
/// this quadratic); returns the log and the game as applied.
fn played_to_the_end() -> (Given, Live) {
    let mut given = given_a_game(3, 0);
    let mut live = given.live();
    let mut moves = 0;
    while !live.is_over() {
        let (seat, kind) = first_legal(&live);
        let events = live
            .plan_move(seat, kind, &format!("m{moves}"))
            .unwrap_or_else(|e| panic!("a legal move refused: {e}"));
        let first = given.log.len();
        given = given.and(events);
        for event in &given.log[first..] {
            live.apply_event(event).expect("a planned event applies");
        }
        moves += 1;
        assert!(moves < 5000, "the game did not end");
    }
    (given, live)
}

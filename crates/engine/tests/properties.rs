//! Properties that must hold in every game: random games for every preset the
//! engine accepts (presets still refused as not implemented are skipped, so
//! new ones are covered as soon as they land), every player count of each
//! preset, random decks and dealers, random legal play. After every action:
//!
//! - the 52 cards are each in exactly one place;
//! - every listed action is accepted, and random other actions are refused
//!   without changing the state;
//! - replaying the log reproduces every state and the public history;
//! - a seat's view does not depend on, nor mention, cards it cannot see.
//!
//! Every failure message names the ruleset, player count, dealer, deck and
//! the actions so far, which is enough to replay the failing game.

use std::collections::HashSet;
use std::fmt;

use rand::seq::{IndexedRandom, SliceRandom};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Map, Value, json};
use skit_engine::rules::Phase1Mode;
use skit_engine::{
    Action, Card, CardSet, Game, MAX_MOVES, Move, MoveKind, Phase, Preset, Rank, Ruleset, Seat,
    SeatSet, State, Suit,
};

/// Random games per ruleset and player count, in each test.
const GAMES: u64 = 2;
/// Random actions outside the legal list tried after every action.
const RANDOM_MOVES: usize = 12;
/// No game may need more actions (the default phase-two limit is 2000).
const MAX_ACTIONS: usize = 10_000;

/// Rulesets beyond the presets, to reach options no preset uses yet (the
/// awaited shuffles in particular). Refused ones are skipped like presets.
fn override_rulesets() -> Vec<Value> {
    vec![
        json!({"preset": "skitgubbe", "options": {"phase1.unfinished_trick": "deal"}}),
        json!({"preset": "skitgubbe", "options": {
            "between.low_cards": {"threshold": 5}, "phase2.pickup": "bottom_card"}}),
        json!({"preset": "skitgubbe", "options": {
            "between.empty_hand": "low_cards", "between.low_cards": {"threshold": "trump_rank"}}}),
        json!({"preset": "skitgubbe", "options": {"between.empty_hand": "loses"}}),
        json!({"preset": "skitgubbe-sequences", "options": {
            "phase2.plays": "sequences_from_two", "phase2.forced_pickup": true,
            "phase2.complete_suit": true, "phase2.min": 3}}),
        json!({"preset": "skitgubbe", "options": {
            "phase2.must_beat": true, "phase2.trump_ends_trick": true,
            "phase2.anti_trump": "same_colour"}}),
        json!({"preset": "mattis-norsk", "options": {
            "phase1.end": "stock_empty", "phase1.chance": false,
            "phase2.plays": "by_trump_colour", "phase2.pickup": "bottom_joined",
            "phase2.anti_trump": "electric_clubs", "phase1.unfinished_trick": "deal"}}),
        json!({"preset": "skitgubbe", "options": {"phase2.action_limit": 25}}),
    ]
}

struct Config {
    label: String,
    rules: Ruleset,
}

/// Every accepted preset, then every accepted override ruleset.
fn configs() -> Vec<Config> {
    let mut out = Vec::new();
    for preset in Preset::ALL {
        if let Ok(rules) = Ruleset::from_json(&json!(preset.name())) {
            out.push(Config {
                label: preset.name().to_owned(),
                rules,
            });
        }
    }
    assert!(
        out.iter().any(|c| c.label == "skitgubbe"),
        "the default preset must be playable"
    );
    for value in override_rulesets() {
        if let Ok(rules) = Ruleset::from_json(&value) {
            out.push(Config {
                label: value.to_string(),
                rules,
            });
        }
    }
    out
}

/// A deal: everything needed to start the game again.
#[derive(Clone)]
struct Setup {
    label: String,
    rules: Ruleset,
    players: u8,
    dealer: Seat,
    deck: Vec<Card>,
}

impl Setup {
    fn game(&self) -> Game {
        Game::deal(self.rules, self.players, self.dealer, &self.deck)
            .unwrap_or_else(|e| panic!("{self}: deal refused: {e}"))
    }
}

impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let deck: Vec<String> = self.deck.iter().map(|c| c.to_string()).collect();
        write!(
            f,
            "rules {}, {} players, dealer {}, deck {}",
            self.label,
            self.players,
            self.dealer,
            deck.join(" ")
        )
    }
}

/// Random deals for every ruleset and player count, each with its own
/// generator, seeded from `salt` so each test plays different games.
fn setups(salt: u64, games: u64) -> Vec<(Setup, ChaCha8Rng)> {
    let mut out = Vec::new();
    for (index, config) in configs().into_iter().enumerate() {
        let (lo, hi) = config.rules.preset.players();
        for players in lo..=hi {
            if config.rules.check_players(players).is_err() {
                continue;
            }
            for game in 0..games {
                let seed = salt.wrapping_mul(0x9E37_79B9_7F4A_7C15)
                    ^ (index as u64) << 32
                    ^ u64::from(players) << 16
                    ^ game;
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                let mut deck: Vec<Card> = Card::all().collect();
                deck.shuffle(&mut rng);
                let dealer = rng.random_range(0..players);
                let setup = Setup {
                    label: config.label.clone(),
                    rules: config.rules,
                    players,
                    dealer,
                    deck,
                };
                out.push((setup, rng));
            }
        }
    }
    out
}

/// The game after some actions, for the checks and their messages.
struct Step<'a> {
    setup: &'a Setup,
    game: &'a Game,
    /// The state before the latest action (none at the deal).
    before: Option<State>,
    log: &'a [Action],
}

impl Step<'_> {
    fn state(&self) -> State {
        *self.game.state()
    }

    fn rules(&self) -> Ruleset {
        *self.game.rules()
    }

    fn ctx(&self) -> String {
        let last = self
            .log
            .last()
            .map_or_else(|| "none".to_owned(), |a| a.to_json().to_string());
        let log: Vec<Value> = self.log.iter().map(Action::to_json).collect();
        format!(
            "{}\nafter {} actions (action index {}: {last})\nstate {:?}\nactions {}",
            self.setup,
            self.log.len(),
            self.log.len().saturating_sub(1),
            self.game.state(),
            Value::Array(log)
        )
    }
}

/// A random next action: a random order of the awaited cards, or a random
/// legal move. `None` when nothing can happen.
fn random_action(game: &Game, rng: &mut ChaCha8Rng) -> Option<Action> {
    let awaited = game.state().awaited_cards();
    if !awaited.is_empty() {
        let mut order: Vec<Card> = awaited.iter().collect();
        order.shuffle(rng);
        return Some(Action::Shuffle(order));
    }
    // Uniform choice picks up so often that most games run into the action
    // limit; pick up only now and then when a play is possible.
    let legal = game.legal_moves();
    let plays: Vec<Move> = legal
        .iter()
        .filter(|m| m.kind != MoveKind::Pickup)
        .copied()
        .collect();
    if plays.is_empty() || rng.random_bool(0.15) {
        return legal.choose(rng).map(|&m| Action::Move(m));
    }
    if rng.random_bool(0.5) {
        return plays.choose(rng).map(|&m| Action::Move(m));
    }
    // Half the time play like a person: shed low cards and long runs, keep trumps.
    let trumps = game.state().trump().map_or(CardSet::EMPTY, CardSet::suit);
    let key = |m: &Move| match m.kind {
        MoveKind::Play(cards) => (
            !(cards & trumps).is_empty(),
            cards.lowest().map_or(0, |c| c.rank().value()),
            u32::MAX - cards.len(),
        ),
        _ => (false, 8, u32::MAX),
    };
    plays
        .iter()
        .min_by_key(|m| key(m))
        .map(|&m| Action::Move(m))
}

/// Plays a random game to its end, calling `check` at the deal and after
/// every action. Returns the finished game and its actions.
fn play(
    setup: &Setup,
    rng: &mut ChaCha8Rng,
    check: &mut dyn FnMut(&Step<'_>, &mut ChaCha8Rng),
) -> (Game, Vec<Action>) {
    let mut game = setup.game();
    let mut log = Vec::new();
    check(
        &Step {
            setup,
            game: &game,
            before: None,
            log: &log,
        },
        rng,
    );
    while let Some(action) = random_action(&game, rng) {
        let before = *game.state();
        if let Err(e) = game.apply(&action) {
            let step = Step {
                setup,
                game: &game,
                before: None,
                log: &log,
            };
            panic!(
                "{}\nthe chosen action {} was refused: {e}",
                step.ctx(),
                action.to_json()
            );
        }
        log.push(action);
        let step = Step {
            setup,
            game: &game,
            before: Some(before),
            log: &log,
        };
        check(&step, rng);
        assert!(
            log.len() <= MAX_ACTIONS,
            "{}\nthe game did not end",
            step.ctx()
        );
    }
    let step = Step {
        setup,
        game: &game,
        before: None,
        log: &log,
    };
    assert_eq!(
        game.state().phase(),
        Phase::Over,
        "{}\nno seat can act and no shuffle is awaited, but the game is not over",
        step.ctx()
    );
    (game, log)
}

const PLACES: [&str; 6] = [
    "hands",
    "piles",
    "stock and reserve",
    "table",
    "face-down trump card",
    "out of play",
];

/// Every card is in exactly one place, and in at most one hand.
fn conservation(state: &State) -> Result<(), String> {
    let places = state.cards_everywhere();
    let mut seen = CardSet::EMPTY;
    for (name, &set) in PLACES.iter().zip(&places) {
        if !(seen & set).is_empty() {
            return Err(format!("{:?} in the {name} and also elsewhere", seen & set));
        }
        seen |= set;
    }
    if seen != CardSet::FULL {
        return Err(format!("{:?} are nowhere", CardSet::FULL - seen));
    }
    let mut held = CardSet::EMPTY;
    for seat in 0..8 {
        let hand = state.hand(seat);
        if !(held & hand).is_empty() {
            return Err(format!("{:?} in two hands", held & hand));
        }
        if seat >= state.players() && !hand.is_empty() {
            return Err(format!("seat {seat} is not playing but holds {hand:?}"));
        }
        held |= hand;
    }
    if held != places[0] {
        return Err(format!(
            "hands {held:?} but cards_everywhere says {:?}",
            places[0]
        ));
    }
    Ok(())
}

fn assert_conserved(step: &Step<'_>) {
    if let Err(e) = conservation(step.game.state()) {
        panic!("{}\ncards not conserved: {e}", step.ctx());
    }
}

fn card(rank: u8, suit: usize) -> Card {
    Card::new(
        Rank::new(rank).expect("a rank from 2 to 14"),
        Suit::ALL[suit % 4],
    )
}

fn random_card(rng: &mut ChaCha8Rng) -> Card {
    card(rng.random_range(2..=14), rng.random_range(0..4))
}

/// A random set of cards from all 52: empty, one card, held or not,
/// several cards, runs, same ranks, whole hands, everything.
fn random_cards(rng: &mut ChaCha8Rng, state: &State) -> CardSet {
    let n = state.players();
    match rng.random_range(0..9) {
        0 => CardSet::EMPTY,
        1 => CardSet::single(random_card(rng)),
        2 => {
            let hand = state.hand(rng.random_range(0..n));
            match hand.nth(rng.random_range(0..hand.len().max(1))) {
                Some(c) => CardSet::single(c),
                None => CardSet::single(random_card(rng)),
            }
        }
        3 => (0..rng.random_range(2..=4))
            .map(|_| random_card(rng))
            .collect(),
        4 => {
            let (low, suit) = (rng.random_range(2..=13), rng.random_range(0..4));
            let len = rng.random_range(2..=5u8);
            (low..=(low + len - 1).min(14))
                .map(|r| card(r, suit))
                .collect()
        }
        5 => {
            let rank = rng.random_range(2..=14);
            let suits = rng.random_range(2..=4);
            (0..suits).map(|s| card(rank, s)).collect()
        }
        6 => state.hand(rng.random_range(0..n)),
        7 => {
            // Cards of a seat's hand plus one it does not hold.
            let hand = state.hand(rng.random_range(0..n));
            hand | CardSet::single(random_card(rng))
        }
        _ => CardSet::FULL,
    }
}

/// A random move: any seat (even not at the table), any kind, any cards;
/// or a legal move changed a little (another card, seat or kind).
fn random_move(rng: &mut ChaCha8Rng, state: &State, legal: &[Move]) -> Move {
    let n = state.players();
    if let (true, Some(&base)) = (rng.random_bool(0.4), legal.choose(rng)) {
        let mut mv = base;
        match (rng.random_range(0..4), mv.kind) {
            (0, MoveKind::Play(set)) => {
                let mut set = set;
                let c = random_card(rng);
                if set.contains(c) {
                    set.remove(c);
                } else {
                    set.insert(c);
                }
                mv.kind = MoveKind::Play(set);
            }
            (0, MoveKind::Sluff(set)) => {
                mv.kind = MoveKind::Sluff(set | CardSet::single(random_card(rng)));
            }
            (1, _) => mv.seat = rng.random_range(0..n),
            (2, MoveKind::Play(set)) => mv.kind = MoveKind::Sluff(set),
            (2, MoveKind::Sluff(set)) => mv.kind = MoveKind::Play(set),
            _ => mv.kind = random_kind(rng, state),
        }
        return mv;
    }
    let seat = match rng.random_range(0..10) {
        0 => rng.random_range(n..=8),
        1 => rng.random(),
        _ => rng.random_range(0..n),
    };
    Move::new(seat, random_kind(rng, state))
}

fn random_kind(rng: &mut ChaCha8Rng, state: &State) -> MoveKind {
    match rng.random_range(0..10) {
        0..=2 => MoveKind::Play(random_cards(rng, state)),
        3 => MoveKind::Sluff(random_cards(rng, state)),
        4 => MoveKind::Chance,
        5 => MoveKind::Pickup,
        6 => MoveKind::Pass,
        7 => MoveKind::Claim,
        8 => MoveKind::Rob,
        _ => MoveKind::Bank,
    }
}

/// Applies `action` to a copy of the state and checks it is refused and the
/// copy unchanged.
fn assert_refused(step: &Step<'_>, action: &Action, why: &str) {
    let state = step.state();
    let mut copy = state;
    let result = copy.apply(&step.rules(), action);
    assert!(
        result.is_err(),
        "{}\n{why}: {} was accepted",
        step.ctx(),
        action.to_json()
    );
    assert!(
        copy == state,
        "{}\n{} was refused ({:?}) but changed the state to {copy:?}",
        step.ctx(),
        action.to_json(),
        result
    );
}

/// Legal = accepted, everything else refused with no change; `to_act` and
/// the per-seat lists agree with the list; shuffles only when awaited.
fn check_legality(step: &Step<'_>, rng: &mut ChaCha8Rng) {
    let state = step.state();
    let rules = step.rules();
    let game = step.game;
    let legal = game.legal_moves();
    let ctx = || step.ctx();
    assert!(
        legal.len() < MAX_MOVES,
        "{}\nthe legal list is full ({} moves): some may have been dropped",
        ctx(),
        legal.len()
    );
    let listed: HashSet<Move> = legal.iter().copied().collect();
    assert_eq!(
        listed.len(),
        legal.len(),
        "{}\na move is listed twice",
        ctx()
    );
    for mv in &legal {
        let mut copy = state;
        if let Err(e) = copy.apply(&rules, &Action::Move(*mv)) {
            panic!(
                "{}\nlisted move {} refused: {e}",
                ctx(),
                Action::Move(*mv).to_json()
            );
        }
        if let Err(e) = conservation(&copy) {
            panic!(
                "{}\nafter listed move {}: cards not conserved: {e}",
                ctx(),
                Action::Move(*mv).to_json()
            );
        }
    }
    let seats: SeatSet = legal.iter().map(|m| m.seat).collect();
    assert_eq!(
        game.to_act(),
        seats,
        "{}\nto_act differs from the seats with legal moves",
        ctx()
    );
    for seat in 0..state.players() {
        let own: Vec<Move> = legal.iter().filter(|m| m.seat == seat).copied().collect();
        assert_eq!(
            game.legal_moves_for(seat).to_vec(),
            own,
            "{}\nlegal_moves_for({seat}) differs from legal_moves",
            ctx()
        );
    }

    let awaited = state.awaited_cards();
    if awaited.is_empty() {
        assert_refused(step, &Action::Shuffle(Vec::new()), "no shuffle awaited");
        let order: Vec<Card> = CardSet::FULL.iter().take(3).collect();
        assert_refused(step, &Action::Shuffle(order), "no shuffle awaited");
    } else {
        assert!(
            legal.is_empty(),
            "{}\na shuffle is awaited but moves are listed",
            ctx()
        );
        let mut order: Vec<Card> = awaited.iter().collect();
        order.shuffle(rng);
        let mut short = order.clone();
        short.pop();
        assert_refused(step, &Action::Shuffle(short), "a card short");
        let mut doubled = order.clone();
        doubled.push(order[0]);
        assert_refused(step, &Action::Shuffle(doubled), "a card twice");
        if let Some(other) = (CardSet::FULL - awaited).first() {
            let mut extra = order.clone();
            extra.push(other);
            assert_refused(step, &Action::Shuffle(extra), "a card not awaited");
            let mut swapped = order.clone();
            swapped[0] = other;
            assert_refused(step, &Action::Shuffle(swapped), "a card not awaited");
        }
    }

    for _ in 0..RANDOM_MOVES {
        let mv = random_move(rng, &state, &legal);
        let action = Action::Move(mv);
        if listed.contains(&mv) {
            let mut copy = state;
            if let Err(e) = copy.apply(&rules, &action) {
                panic!("{}\nlisted move {} refused: {e}", ctx(), action.to_json());
            }
        } else {
            assert_refused(step, &action, "not in the legal list");
        }
    }
}

#[test]
fn every_action_conserves_cards_and_legal_moves_are_exactly_the_accepted_ones() {
    let mut actions = 0usize;
    for (setup, mut rng) in setups(1, GAMES) {
        let (_, log) = play(&setup, &mut rng, &mut |step, rng| {
            assert_conserved(step);
            check_legality(step, rng);
        });
        actions += log.len();
    }
    assert!(actions > 1000, "only {actions} actions were played");
}

#[test]
fn awaited_shuffles_are_the_only_way_forward() {
    // The override rulesets with low cards or an unfinished-trick deal await
    // shuffles; when one is accepted, some random game must reach a shuffle.
    let mut shuffles = 0usize;
    let mut may_shuffle = false;
    for (setup, mut rng) in setups(2, GAMES) {
        let o = setup.rules.options;
        may_shuffle |= o.low_cards.is_some()
            || o.unfinished_trick == skit_engine::rules::UnfinishedTrick::Deal;
        let (_, log) = play(&setup, &mut rng, &mut |step, _| {
            let state = step.state();
            let waiting = state.awaiting() != skit_engine::Awaiting::Nothing;
            assert_eq!(
                waiting,
                !state.awaited_cards().is_empty(),
                "{}\nawaiting() and awaited_cards() disagree",
                step.ctx()
            );
            if waiting {
                assert!(step.game.to_act().is_empty(), "{}", step.ctx());
                assert!(step.game.view(None).awaiting_shuffle, "{}", step.ctx());
            }
        });
        shuffles += log
            .iter()
            .filter(|a| matches!(a, Action::Shuffle(_)))
            .count();
    }
    if may_shuffle {
        assert!(shuffles > 0, "no game reached an awaited shuffle");
    }
}

#[test]
fn replaying_the_actions_reproduces_every_state_and_the_history() {
    for (setup, mut rng) in setups(3, GAMES) {
        let mut states = Vec::new();
        let mut history_lens = Vec::new();
        let (game, log) = play(&setup, &mut rng, &mut |step, _| {
            states.push(step.state());
            history_lens.push(step.game.history().len());
        });
        let history = game.history();
        let fail = |i: usize, what: &str| -> String {
            let actions: Vec<Value> = log[..i].iter().map(Action::to_json).collect();
            format!(
                "{setup}\nreplay of {i} actions: {what}\nactions {}",
                Value::Array(actions)
            )
        };

        let mut replay = setup.game();
        let mut bare = State::deal(&setup.rules, setup.players, setup.dealer, &setup.deck)
            .unwrap_or_else(|e| panic!("{setup}: {e}"));
        assert!(*replay.state() == states[0], "{}", fail(0, "deal differs"));
        assert!(bare == states[0], "{}", fail(0, "State::deal differs"));
        for (i, action) in log.iter().enumerate() {
            // Through the JSON form, as services and logs store it.
            let text = serde_json::to_string(action).expect("an action serializes");
            let parsed: Action = serde_json::from_str(&text)
                .unwrap_or_else(|e| panic!("{}", fail(i, &format!("{text} does not parse: {e}"))));
            assert_eq!(&parsed, action, "{}", fail(i, "JSON round trip"));
            if let Err(e) = replay.apply(&parsed) {
                panic!("{}", fail(i + 1, &format!("{text} refused: {e}")));
            }
            if let Err(e) = bare.apply(&setup.rules, &parsed) {
                panic!(
                    "{}",
                    fail(i + 1, &format!("State::apply {text} refused: {e}"))
                );
            }
            assert!(
                *replay.state() == states[i + 1],
                "{}",
                fail(
                    i + 1,
                    &format!("state {:?} != {:?}", replay.state(), states[i + 1])
                )
            );
            assert!(
                bare == states[i + 1],
                "{}",
                fail(i + 1, "State::apply differs")
            );
            assert_eq!(
                replay.history(),
                &history[..history_lens[i + 1]],
                "{}",
                fail(i + 1, "history differs")
            );
        }
        assert_eq!(replay.history(), history, "{}", fail(log.len(), "history"));
        assert!(
            matches!(history.last(), Some(skit_engine::Record::End { .. })),
            "{}",
            fail(log.len(), "the history does not end with the end")
        );
    }
}

/// Where a card is, as far as whether a seat can see it goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Loc {
    Hand(Seat),
    /// The stock or the reserve, face down (not the turned-up card).
    Drawpile,
    FaceDownTrump,
    /// On the table, in a pile, out of play or face up under the stock.
    Elsewhere,
}

fn loc(state: &State, card: Card) -> Loc {
    let places = state.cards_everywhere();
    if places[2].contains(card) && state.turned_card() != Some(card) {
        Loc::Drawpile
    } else if places[4].contains(card) {
        Loc::FaceDownTrump
    } else if let Some(seat) = (0..state.players()).find(|&s| state.hand(s).contains(card)) {
        Loc::Hand(seat)
    } else {
        Loc::Elsewhere
    }
}

fn hidden_from(loc: Loc, seat: Seat) -> bool {
    match loc {
        Loc::Hand(holder) => holder != seat,
        Loc::Drawpile | Loc::FaceDownTrump => true,
        Loc::Elsewhere => false,
    }
}

fn view_json(game: &Game, seat: Option<Seat>) -> String {
    serde_json::to_string(&game.view(seat)).expect("a view serializes")
}

/// A view serialized without its history (which grows with every action, so
/// serializing it whole after every action is quadratic), after checking
/// that the history it holds is the game's.
fn view_json_but_history(game: &Game, seat: Option<Seat>) -> String {
    let mut view = game.view(seat);
    assert!(
        view.history == game.history(),
        "the view's history is not the game's"
    );
    view.history.clear();
    serde_json::to_string(&view).expect("a view serializes")
}

#[test]
fn views_at_the_deal_depend_only_on_the_seats_own_cards() {
    for (setup, mut rng) in setups(4, GAMES) {
        let n = setup.players as usize;
        let seat = rng.random_range(0..setup.players);
        let reserve = setup.rules.options.reserve as usize;
        // Keep the seat's three cards (and a turned-up trump) where they are;
        // shuffle every other card.
        let mut fixed: Vec<usize> = (0..3 * n)
            .filter(|i| (setup.dealer as usize + 1 + i) % n == seat as usize)
            .map(|i| reserve + i)
            .collect();
        if setup.rules.options.mode == Phase1Mode::TurnedTrump {
            fixed.push(reserve + 3 * n);
        }
        let free: Vec<usize> = (0..52).filter(|i| !fixed.contains(i)).collect();
        let mut cards: Vec<Card> = free.iter().map(|&i| setup.deck[i]).collect();
        cards.shuffle(&mut rng);
        let mut other = setup.clone();
        for (&i, &c) in free.iter().zip(&cards) {
            other.deck[i] = c;
        }
        let (a, b) = (setup.game(), other.game());
        assert_eq!(
            a.state().hand(seat),
            b.state().hand(seat),
            "{setup}\nthe test's own deal arithmetic is wrong"
        );
        for viewer in [Some(seat), None] {
            assert_eq!(
                view_json(&a, viewer),
                view_json(&b, viewer),
                "{setup}\nand the same deal with the other cards reshuffled:\n{other}\n\
                 give seat {viewer:?} different views at the deal"
            );
        }
    }
}

#[test]
fn views_do_not_depend_on_cards_the_seat_cannot_see() {
    let mut compared_different_states = 0usize;
    for (setup, mut rng) in setups(5, GAMES + 1) {
        let start = setup.game();
        let seat = rng.random_range(0..setup.players);
        // Two deck positions whose cards the seat cannot see, preferably in
        // different places (two other hands, or a hand and the stock).
        let hidden: Vec<usize> = (0..52)
            .filter(|&i| hidden_from(loc(start.state(), setup.deck[i]), seat))
            .collect();
        let mut pick = || {
            let i = *hidden
                .choose(&mut rng)
                .expect("cards are hidden at the deal");
            let mut j = i;
            for _ in 0..50 {
                j = *hidden
                    .choose(&mut rng)
                    .expect("cards are hidden at the deal");
                let (a, b) = (setup.deck[i], setup.deck[j]);
                if loc(start.state(), a) != loc(start.state(), b) {
                    break;
                }
            }
            (i, j)
        };
        let (i, j) = pick();
        if i == j {
            continue;
        }
        let (x, y) = (setup.deck[i], setup.deck[j]);
        let (loc_x, loc_y) = (loc(start.state(), x), loc(start.state(), y));
        let mut other = setup.clone();
        other.deck.swap(i, j);
        let mut b = other.game();
        let mut comparing = true;
        let mut history_checked = 0;
        play(&setup, &mut rng, &mut |step, _| {
            if !comparing {
                return;
            }
            let a = step.game;
            if step.before.is_some() {
                let action = step.log.last().expect("an action was played");
                if b.apply(action).is_err() {
                    // Legal for the other holder in one deal but not the
                    // other (the hands differ): stop comparing.
                    comparing = false;
                    return;
                }
            }
            if loc(a.state(), x) != loc_x || loc(a.state(), y) != loc_y {
                comparing = false;
                return;
            }
            if a.state() != b.state() {
                compared_different_states += 1;
            }
            // Whole views now and then; the rest of the time the views
            // without the history, and the histories (append-only) compared
            // record by record from where the last step left off.
            let whole = step.log.len() % 32 == 0;
            for viewer in [Some(seat), None] {
                let (va, vb) = if whole {
                    (view_json(a, viewer), view_json(&b, viewer))
                } else {
                    (
                        view_json_but_history(a, viewer),
                        view_json_but_history(&b, viewer),
                    )
                };
                assert!(
                    va == vb,
                    "{}\nwith {x} and {y} swapped in the deck (deck positions {i} and {j}), \
                     both still unseen by seat {seat}, the view of {viewer:?} differs:\n{va}\n{vb}",
                    step.ctx()
                );
            }
            let (ha, hb) = (a.history(), b.history());
            let from = history_checked.min(ha.len());
            let (ja, jb) = (
                serde_json::to_string(&ha[from..]).expect("serializes"),
                serde_json::to_string(&hb[from.min(hb.len())..]).expect("serializes"),
            );
            assert!(
                ja == jb,
                "{}\nwith {x} and {y} swapped in the deck, the public history differs:\n{ja}\n{jb}",
                step.ctx()
            );
            history_checked = ha.len();
        });
    }
    assert!(
        compared_different_states > 100,
        "only {compared_different_states} comparisons of different states"
    );
}

/// Every card written as a JSON string in `json` (`"TS"`).
fn cards_mentioned(json: &str) -> CardSet {
    let bytes = json.as_bytes();
    let mut cards = CardSet::EMPTY;
    let mut i = 0;
    while i + 3 < bytes.len() {
        if bytes[i] == b'"' && bytes[i + 3] == b'"' {
            let rank = Rank::from_letter(char::from(bytes[i + 1]));
            let suit = Suit::from_letter(char::from(bytes[i + 2]));
            if let (Some(rank), Some(suit)) = (rank, suit) {
                cards.insert(Card::new(rank, suit));
            }
        }
        i += 1;
    }
    cards
}

/// Cards everyone has seen: updated from the state change of each action,
/// independently of the history and the views.
fn update_shown(shown: &mut CardSet, step: &Step<'_>) {
    let after = step.state();
    *shown |= after.table_set() | after.awaited_cards();
    if let Some(card) = after.turned_card() {
        shown.insert(card);
    }
    let (Some(before), Some(action)) = (step.before, step.log.last()) else {
        return;
    };
    if let Some(card) = before.turned_card() {
        shown.insert(card);
    }
    // The face-down trump card is turned face up between the phases.
    *shown |= before.cards_everywhere()[4] - after.cards_everywhere()[4];
    match action {
        Action::Shuffle(order) => *shown |= order.iter().copied().collect::<CardSet>(),
        Action::Move(mv) => {
            if let MoveKind::Play(cards) | MoveKind::Sluff(cards) = mv.kind {
                *shown |= cards;
            }
            if mv.kind == MoveKind::Chance {
                // The stock's top card, turned up.
                *shown |= before.cards_everywhere()[2] - after.cards_everywhere()[2];
            }
            // Cards leaving a hand other than by a play (banked, robbed)
            // are shown too.
            *shown |= before.hand(mv.seat) - after.hand(mv.seat);
        }
    }
}

#[test]
fn views_never_mention_cards_the_seat_cannot_see() {
    let mut checked = 0usize;
    // One game per ruleset and player count: serializing views after every
    // action is the slowest check here.
    for (setup, mut rng) in setups(6, 1) {
        let mut shown = CardSet::EMPTY;
        let mut history_checked = 0;
        let rules_cards = cards_mentioned(&setup.rules.to_json().to_string());
        play(&setup, &mut rng, &mut |step, rng| {
            update_shown(&mut shown, step);
            // The history is the same in every view: its new records must
            // name only cards everyone has seen.
            let history = step.game.history();
            let new = serde_json::to_string(&history[history_checked..]).expect("serializes");
            let leaked = cards_mentioned(&new) & (CardSet::FULL - shown);
            assert!(
                leaked.is_empty(),
                "{}\nthe public history mentions {leaked:?}, which not everyone has seen: {new}",
                step.ctx()
            );
            history_checked = history.len();
            let state = step.state();
            let n = state.players();
            // A spectator and one seat, a different one at random each time.
            for viewer in [None, Some(rng.random_range(0..n))] {
                let own = viewer.map_or(CardSet::EMPTY, |s| state.hand(s));
                // The ruleset may name cards (low-card extras); it is public.
                let hidden = CardSet::FULL - shown - own - rules_cards;
                let view = view_json_but_history(step.game, viewer);
                let leaked = cards_mentioned(&view) & hidden;
                assert!(
                    leaked.is_empty(),
                    "{}\nthe view of seat {viewer:?} mentions {leaked:?}, which it cannot see \
                     (shown so far: {shown:?})\nview {view}",
                    step.ctx()
                );
                checked += 1;
            }
        });
    }
    assert!(checked > 1000, "only {checked} views checked");
}

/// A random JSON value, often almost an action.
fn random_json(rng: &mut ChaCha8Rng, state: &State, depth: u32) -> Value {
    const KEYS: [&str; 14] = [
        "seat", "play", "sluff", "chance", "pickup", "pass", "claim", "rob", "bank", "shuffle",
        "Play", "", "cards", "seat ",
    ];
    const TEXTS: [&str; 12] = [
        "",
        "10H",
        "1S",
        "TSX",
        "AS ",
        "ZZ",
        "é",
        "\u{1F0A1}",
        "x",
        "t",
        "Ts",
        "\0",
    ];
    let top = if depth > 2 { 6 } else { 10 };
    match rng.random_range(0..top) {
        0 => Value::Null,
        1 => json!(rng.random_bool(0.7)),
        2 => match rng.random_range(0..8) {
            0 => json!(-1),
            1 => json!(u64::MAX),
            2 => json!(1.5),
            3 => json!(256),
            4 => json!(rng.random::<i64>()),
            _ => json!(rng.random_range(0..=9)),
        },
        3 => {
            let c = random_card(rng).to_string();
            json!(if rng.random_bool(0.3) {
                c.to_lowercase()
            } else {
                c
            })
        }
        4 => json!(TEXTS.choose(rng).expect("texts")),
        5 => {
            // A list of cards, perhaps with a duplicate or a non-card.
            let mut list: Vec<Value> = random_cards(rng, state)
                .iter()
                .map(|c| json!(c.to_string()))
                .collect();
            list.shuffle(rng);
            match rng.random_range(0..6) {
                0 => list.push(json!("7C")),
                1 => list.push(random_json(rng, state, depth + 1)),
                _ => {}
            }
            Value::Array(list)
        }
        6 => {
            let len = rng.random_range(0..4);
            Value::Array(
                (0..len)
                    .map(|_| random_json(rng, state, depth + 1))
                    .collect(),
            )
        }
        _ => {
            let mut object = Map::new();
            if rng.random_bool(0.85) {
                let seat = if rng.random_bool(0.8) {
                    json!(rng.random_range(0..state.players()))
                } else {
                    random_json(rng, state, depth + 1)
                };
                object.insert("seat".into(), seat);
            }
            for _ in 0..rng.random_range(0..=2) {
                let key = *KEYS.choose(rng).expect("keys");
                let value = match key {
                    "play" | "sluff" | "shuffle" if rng.random_bool(0.7) => {
                        let cards = if key == "shuffle" && rng.random_bool(0.5) {
                            state.awaited_cards()
                        } else {
                            random_cards(rng, state)
                        };
                        let mut list: Vec<Card> = cards.iter().collect();
                        list.shuffle(rng);
                        json!(list.iter().map(|c| c.to_string()).collect::<Vec<_>>())
                    }
                    _ if rng.random_bool(0.5) => json!(true),
                    _ => random_json(rng, state, depth + 1),
                };
                object.insert(key.into(), value);
            }
            Value::Object(object)
        }
    }
}

#[test]
fn malformed_actions_never_panic_and_never_change_the_game() {
    let mut parsed = 0usize;
    for (setup, mut rng) in setups(7, 1) {
        let (mut game, _) = play(&setup, &mut rng, &mut |step, rng| {
            let state = step.state();
            let rules = step.rules();
            let legal = step.game.legal_moves();
            for _ in 0..6 {
                let value = random_json(rng, &state, 0);
                // The text form too, with a byte changed now and then.
                let mut text = value.to_string().into_bytes();
                if !text.is_empty() && rng.random_bool(0.3) {
                    let at = rng.random_range(0..text.len());
                    text[at] = rng.random();
                }
                let _ = serde_json::from_slice::<Action>(&text);
                let _ = serde_json::from_slice::<MoveKind>(&text);
                let Ok(action) = Action::from_json(&value) else {
                    continue;
                };
                parsed += 1;
                assert_eq!(
                    Action::from_json(&action.to_json()).as_ref(),
                    Ok(&action),
                    "{}\n{value} parses but does not round-trip",
                    step.ctx()
                );
                let mut copy = state;
                match copy.apply(&rules, &action) {
                    Ok(()) => {
                        let expected = match &action {
                            Action::Move(mv) => legal.contains(mv),
                            Action::Shuffle(order) => {
                                order.iter().copied().collect::<CardSet>() == state.awaited_cards()
                                    && order.len() == state.awaited_cards().len() as usize
                            }
                        };
                        assert!(expected, "{}\n{value} was accepted", step.ctx());
                        if let Err(e) = conservation(&copy) {
                            panic!("{}\nafter {value}: {e}", step.ctx());
                        }
                    }
                    Err(_) => assert!(
                        copy == state,
                        "{}\n{value} was refused but changed the state",
                        step.ctx()
                    ),
                }
            }
        });
        // A finished game refuses everything, without change.
        let state = *game.state();
        let history = game.history().len();
        for action in [
            Action::Move(Move::new(0, MoveKind::Pickup)),
            Action::Move(Move::new(0, MoveKind::Play(CardSet::FULL))),
            Action::Shuffle(Vec::new()),
        ] {
            assert!(
                game.apply(&action).is_err(),
                "{setup}: accepted after the end"
            );
            assert!(*game.state() == state && game.history().len() == history);
        }
    }
    assert!(parsed > 100, "only {parsed} random actions parsed");
}

#[test]
fn state_is_small_and_copy() {
    fn copy<T: Copy>() {}
    copy::<State>();
    let size = std::mem::size_of::<State>();
    assert!(size < 256, "State is {size} bytes");
}

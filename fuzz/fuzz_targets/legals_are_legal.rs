//! From the fuzz bytes: a preset the engine accepts, a player count in its
//! range, a dealer, a deck order and a sequence of choices, some from the
//! legal list and some arbitrary moves. Every listed action must be
//! accepted, every arbitrary move not listed refused with the state
//! unchanged, and every card must stay in exactly one place.
//!
//! Run with `cargo +nightly fuzz run legals_are_legal` from the repository root.

#![no_main]

use libfuzzer_sys::fuzz_target;
use skit_engine::{Action, Card, CardSet, Game, Move, MoveKind, Phase, Preset, Ruleset, State};

/// Reads decisions from the fuzz input; zeros once it runs out, so every
/// input plays a whole game.
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn byte(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }

    /// A number below `n` (0 when `n` is 0 or 1).
    fn below(&mut self, n: usize) -> usize {
        if n <= 1 {
            return 0;
        }
        let wide = usize::from(self.byte()) << 8 | usize::from(self.byte());
        wide % n
    }

    fn bits(&mut self) -> u64 {
        (0..8).fold(0, |acc, _| acc << 8 | u64::from(self.byte()))
    }
}

/// The most actions one input may play (the default action limit is 2000).
const MAX_ACTIONS: usize = 4000;

fuzz_target!(|data: &[u8]| run(data));

fn run(data: &[u8]) {
    let mut bytes = Bytes(data);
    let rulesets: Vec<Ruleset> = Preset::ALL
        .iter()
        .filter_map(|p| Ruleset::from_json(&serde_json::json!(p.name())).ok())
        .collect();
    let rules = rulesets[bytes.below(rulesets.len())];
    let (lo, hi) = rules.preset.players();
    let players = lo + bytes.below(usize::from(hi - lo) + 1) as u8;
    if rules.check_players(players).is_err() {
        return;
    }
    let dealer = bytes.below(usize::from(players)) as u8;
    let mut deck: Vec<Card> = Card::all().collect();
    for i in (1..deck.len()).rev() {
        let j = bytes.below(i + 1);
        deck.swap(i, j);
    }
    let mut game = match Game::deal(rules, players, dealer, &deck) {
        Ok(game) => game,
        Err(e) => panic!("a valid deal was refused: {e}"),
    };

    for _ in 0..MAX_ACTIONS {
        let state = *game.state();
        conservation(&state);
        let legal = game.legal_moves();
        for mv in &legal {
            let mut copy = state;
            if let Err(e) = copy.apply(&rules, &Action::Move(*mv)) {
                panic!("listed move {mv:?} refused: {e} in {state:?}");
            }
            conservation(&copy);
        }
        let awaited = state.awaited_cards();
        if awaited.is_empty() {
            refused(&rules, &state, &Action::Shuffle(Vec::new()));
        } else {
            assert!(legal.is_empty(), "moves listed while a shuffle is awaited");
        }
        for _ in 0..bytes.below(4) {
            let mv = arbitrary_move(&mut bytes, &state);
            let mut copy = state;
            let result = copy.apply(&rules, &Action::Move(mv));
            if legal.contains(&mv) {
                assert!(result.is_ok(), "listed move {mv:?} refused in {state:?}");
            } else {
                refused(&rules, &state, &Action::Move(mv));
            }
        }
        let action = if !awaited.is_empty() {
            let mut order: Vec<Card> = awaited.iter().collect();
            for i in (1..order.len()).rev() {
                let j = bytes.below(i + 1);
                order.swap(i, j);
            }
            Action::Shuffle(order)
        } else if let Some(&mv) = legal.get(bytes.below(legal.len())) {
            Action::Move(mv)
        } else {
            assert_eq!(state.phase(), Phase::Over, "nobody can act in {state:?}");
            return;
        };
        if let Err(e) = game.apply(&action) {
            panic!("{action:?} refused: {e} in {state:?}");
        }
    }
}

/// A move from the bytes: any seat (some not at the table), any kind, any
/// cards (random bits, one card, a hand with a card toggled, none).
fn arbitrary_move(bytes: &mut Bytes<'_>, state: &State) -> Move {
    let seat = bytes.byte() % 10;
    let hand = state.hand(seat % state.players());
    let one = Card::all()
        .nth(bytes.below(52))
        .map_or(CardSet::EMPTY, CardSet::single);
    let cards = match bytes.byte() % 5 {
        0 => CardSet::from_bits(bytes.bits()),
        1 => one,
        2 => hand,
        3 => CardSet::from_bits(hand.bits() ^ one.bits()),
        _ => CardSet::EMPTY,
    };
    let kind = match bytes.byte() % 8 {
        0 => MoveKind::Play(cards),
        1 => MoveKind::Sluff(cards),
        2 => MoveKind::Chance,
        3 => MoveKind::Pickup,
        4 => MoveKind::Pass,
        5 => MoveKind::Claim,
        6 => MoveKind::Rob,
        _ => MoveKind::Bank,
    };
    Move::new(seat, kind)
}

/// `action` is refused and leaves the state as it was.
fn refused(rules: &Ruleset, state: &State, action: &Action) {
    let mut copy = *state;
    assert!(
        copy.apply(rules, action).is_err(),
        "{action:?} is not listed but was accepted in {state:?}"
    );
    assert!(copy == *state, "refused {action:?} changed {state:?}");
}

/// Every card is in exactly one place.
fn conservation(state: &State) {
    let mut seen = CardSet::EMPTY;
    for set in state.cards_everywhere() {
        assert!(
            (seen & set).is_empty(),
            "{:?} twice in {state:?}",
            seen & set
        );
        seen |= set;
    }
    assert_eq!(seen, CardSet::FULL, "cards missing in {state:?}");
}

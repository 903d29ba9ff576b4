//! Every listed action is accepted, and random other actions (moves and
//! shuffles) are refused without changing the state; awaited shuffles are
//! the only way forward. Also runs the card-conservation check after every
//! action.

use std::collections::HashSet;

use rand::Rng;
use rand::seq::{IndexedRandom, SliceRandom};
use rand_chacha::ChaCha8Rng;
use skit_engine::{Action, Card, CardSet, MAX_MOVES, Move, MoveKind, Phase, SeatSet, State};

use crate::properties::conservation::{assert_conserved, conservation};
use crate::properties::play::play;
use crate::properties::{GAMES, Step, card, random_card, setups};

/// Random actions outside the legal list tried after every action.
const RANDOM_MOVES: usize = 12;

/// A random set of cards from all 52: empty, one card, held or not,
/// several cards, runs, same ranks, whole hands, everything.
pub(crate) fn random_cards(rng: &mut ChaCha8Rng, state: &State) -> CardSet {
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
    assert!(
        !legal.is_empty() || !awaited.is_empty() || state.phase() == Phase::Over,
        "{}\nthe game is not over and awaits no shuffle, but nobody may act",
        ctx()
    );
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

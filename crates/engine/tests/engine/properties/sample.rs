//! Sampled worlds (`Game::sample_worlds`):
//!
//! - the OpenSpiel contract: every sample gives the viewer exactly its view
//!   (history included) and legal actions, at every point of whole games of
//!   every ruleset, and is a whole game (52 cards, each once) that plays on;
//! - no leak: the samples are a function of what the viewer sees and the
//!   seed only, so sampling from a sample gives the same worlds, and the true
//!   arrangement comes back no more often than chance;
//! - the distribution: where an unseen card lands passes a chi-square test
//!   against the documented one (uniform over the unseen places).

use rand::Rng;
use rand::seq::IndexedRandom;
use skit_engine::{Action, CardSet, Game, Record, Seat, World};

use crate::properties::play::play;
use crate::properties::{Step, setups};

fn sample(game: &Game, viewer: Option<Seat>, n: usize, seed: u64) -> Vec<Game> {
    game.sample_worlds(viewer, n, seed)
        .unwrap_or_else(|e| panic!("no worlds for {viewer:?}: {e}"))
}

#[test]
fn every_sample_gives_the_viewer_its_view_and_legal_actions() {
    let mut checked = 0usize;
    for (setup, mut rng) in setups(11, 1) {
        play(&setup, &mut rng, &mut |step, rng| {
            let game = step.game;
            let n = step.state().players();
            let viewer = if rng.random_bool(0.2) {
                None
            } else {
                Some(rng.random_range(0..n))
            };
            let seed = rng.random();
            let view = game.view_since(viewer, usize::MAX);
            let spectator = game.view_since(None, usize::MAX);
            for world in sample(game, viewer, 2, seed) {
                let ctx = || format!("{}\nsample for {viewer:?} with seed {seed}", step.ctx());
                assert_eq!(world.view_since(viewer, usize::MAX), view, "{}", ctx());
                assert_eq!(world.view_since(None, usize::MAX), spectator, "{}", ctx());
                assert!(
                    world.history() == game.history(),
                    "{}: history differs",
                    ctx()
                );
                if let Some(seat) = viewer {
                    assert_eq!(
                        world.legal_moves_for(seat),
                        game.legal_moves_for(seat),
                        "{}",
                        ctx()
                    );
                }
                let places = world.state().cards_everywhere();
                let all = places.iter().fold(CardSet::EMPTY, |a, &b| a | b);
                let count: u32 = places.iter().map(|p| p.len()).sum();
                assert!(
                    all == CardSet::FULL && count == 52,
                    "{}: cards lost or doubled",
                    ctx()
                );
                // The world plays on: a random legal action of it is accepted.
                let mut next = world.clone();
                if let Some(&mv) = world.legal_moves().choose(rng) {
                    next.apply(&Action::Move(mv))
                        .unwrap_or_else(|e| panic!("{}: {mv:?} refused: {e}", ctx()));
                }
                checked += 1;
            }
        });
    }
    assert!(checked > 10_000, "only {checked} samples checked");
}

#[test]
fn sampling_from_a_sample_gives_the_same_worlds() {
    let mut checked = 0usize;
    for (setup, mut rng) in setups(12, 1) {
        play(&setup, &mut rng, &mut |step, rng| {
            if step.log.len() % 7 != 0 {
                return;
            }
            let game = step.game;
            let viewer = Some(rng.random_range(0..step.state().players()));
            let seed = rng.random();
            let from_truth: Vec<World> = sample(game, viewer, 3, seed)
                .iter()
                .map(Game::world)
                .collect();
            for other in sample(game, viewer, 2, seed ^ 1) {
                let from_other: Vec<World> = sample(&other, viewer, 3, seed)
                    .iter()
                    .map(Game::world)
                    .collect();
                assert!(
                    from_truth == from_other,
                    "{}\n{viewer:?} cannot tell these games apart, but seed {seed} samples differ",
                    step.ctx()
                );
                checked += 1;
            }
        });
    }
    assert!(checked > 1000, "only {checked} comparisons");
}

/// Where a card lies, coarsely: a seat's hand, the stock, the reserve, the
/// face-down trump card, elsewhere.
fn class(world: &World, card: skit_engine::Card) -> usize {
    let n = world.hands.len();
    if let Some(seat) = world.hands.iter().position(|h| h.contains(card)) {
        seat
    } else if world.stock.contains(&card) {
        n
    } else if world.reserve.contains(&card) {
        n + 1
    } else if world.face_down_trump == Some(card) {
        n + 2
    } else {
        n + 3
    }
}

/// The chi-square statistic's critical value for `df` degrees of freedom at
/// significance 1e-4 (Wilson-Hilferty; z = 3.719).
fn critical(df: usize) -> f64 {
    let k = df as f64;
    let h = 2.0 / (9.0 * k);
    k * (1.0 - h + 3.719 * h.sqrt()).powi(3)
}

/// One point of a game: a chi-square test of where one unseen card lands,
/// and how often the true arrangement is returned. `None` when the point is
/// not one the documented distribution is plain uniform at.
fn check_point(
    step: &Step<'_>,
    viewer: Seat,
    seed: u64,
    samples: usize,
) -> Option<(f64, f64, usize)> {
    let game = step.game;
    let state = step.state();
    let o = &game.rules().options;
    let shuffled = game
        .history()
        .iter()
        .any(|r| matches!(r, Record::Shuffle { .. }));
    if shuffled || o.must_follow || o.compulsory_ties || o.must_beat {
        return None;
    }
    let view = game.view(Some(viewer));
    let n = state.players() as usize;
    // Unseen places, from the view and the public fact of a face-down trump.
    let mut places = vec![0u32; n + 4];
    for (seat, sv) in view.seats.iter().enumerate() {
        if seat != viewer as usize {
            places[seat] = sv.hand_size - sv.known_cards.len();
        }
    }
    places[n] = view.stock_size - u32::from(view.turned_card.is_some());
    places[n + 1] = view.reserve_size;
    places[n + 2] = state.cards_everywhere()[4].len();
    let total: u32 = places.iter().sum();
    // The card: one truly in the stock or an unknown part of another hand.
    let truth = game.world();
    let candidates: Vec<_> = CardSet::FULL
        .iter()
        .filter(|&c| {
            let k = class(&truth, c);
            k != viewer as usize
                && k < n + 3
                && !view.seats.iter().any(|s| s.known_cards.contains(c))
                && view.turned_card != Some(c)
        })
        .collect();
    let card = *candidates.first()?;
    if total < 2 || places.iter().filter(|&&p| p > 0).count() < 2 {
        return None;
    }
    let worlds = sample(game, Some(viewer), samples, seed);
    let mut counts = vec![0u32; n + 4];
    let mut same = 0usize;
    for world in &worlds {
        counts[class(&world.world(), card)] += 1;
        same += usize::from(world.world() == truth);
    }
    let mut chi = 0.0;
    let mut df = 0usize;
    for (k, &slots) in places.iter().enumerate() {
        let expected = samples as f64 * f64::from(slots) / f64::from(total);
        if slots == 0 {
            assert_eq!(
                counts[k],
                0,
                "{}\n{card} landed in class {k}, which has no unseen place",
                step.ctx()
            );
            continue;
        }
        chi += (f64::from(counts[k]) - expected).powi(2) / expected;
        df += 1;
    }
    // Arrangements of the unseen cards: total! over the hands' orders.
    let mut arrangements = 1.0f64;
    let mut left = total;
    for (k, &slots) in places.iter().enumerate() {
        let ordered = k >= n; // stock and reserve places are each distinct
        for i in 0..slots {
            arrangements *= f64::from(left - i) / if ordered { 1.0 } else { f64::from(i + 1) };
        }
        left -= slots;
    }
    let chance = samples as f64 / arrangements;
    let bound = chance + 4.0 * chance.sqrt() + 1.0;
    assert!(
        (same as f64) <= bound,
        "{}\nthe true arrangement came back {same} times in {samples} (chance: {chance:.2})",
        step.ctx()
    );
    Some((chi, critical(df - 1), same))
}

#[test]
fn unseen_cards_land_uniformly_and_the_truth_only_by_chance() {
    let mut points = 0usize;
    let mut truth_returned = 0usize;
    for (setup, mut rng) in setups(13, 1) {
        play(&setup, &mut rng, &mut |step, rng| {
            if step.log.len() % 23 != 5 {
                return;
            }
            let viewer = rng.random_range(0..step.state().players());
            let Some((chi, critical, same)) = check_point(step, viewer, rng.random(), 400) else {
                return;
            };
            assert!(
                chi <= critical,
                "{}\nchi-square {chi:.1} above {critical:.1}: the unseen card does not land uniformly",
                step.ctx()
            );
            points += 1;
            truth_returned += same;
        });
    }
    assert!(points > 100, "only {points} points checked");
    // Late in phase two few arrangements remain, so the truth does come back.
    assert!(truth_returned > 0, "the true arrangement never came back");
}

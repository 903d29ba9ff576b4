//! `State::random_move` picks among exactly the actions `legal_moves` lists,
//! in the same order: asked for the `k`-th of `n`, it returns `legal[k]`,
//! and `n` is the length of the list; and that list is every seat's own
//! list, seat by seat. The fast paths (only the seat due is asked, single
//! cards, actions without cards) must never drift from the full answer.

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use skit_engine::{Action, Card, Phase, Preset, Ruleset, State};

#[test]
fn random_move_indexes_the_legal_list() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for preset in Preset::ALL {
        let rules = Ruleset::preset(preset);
        let (lo, hi) = preset.players();
        for players in [lo, 3.clamp(lo, hi), hi] {
            for game in 0..4u8 {
                let mut deck: Vec<Card> = Card::all().collect();
                deck.shuffle(&mut rng);
                let dealer = game % players;
                let mut state = State::deal(&rules, players, dealer, &deck).expect("deal");
                let mut steps = 0;
                while state.phase() != Phase::Over && steps < 3000 {
                    steps += 1;
                    let awaited = state.awaited_cards();
                    if !awaited.is_empty() {
                        let mut order: Vec<Card> = awaited.iter().collect();
                        order.shuffle(&mut rng);
                        state
                            .apply(&rules, &Action::Shuffle(order))
                            .expect("shuffle");
                        continue;
                    }
                    let legal = state.legal_moves(&rules);
                    let every_seat: Vec<_> = (0..players)
                        .flat_map(|seat| state.legal_moves_for(&rules, seat))
                        .collect();
                    assert_eq!(legal.as_slice(), every_seat.as_slice(), "{preset:?} seats");
                    for (k, expected) in legal.iter().enumerate() {
                        let mut asked = None;
                        let mv = state.random_move(&rules, |n| {
                            asked = Some(n);
                            k as u32
                        });
                        assert_eq!(mv, Some(*expected), "{preset:?} {players}p move {k}");
                        assert_eq!(asked, Some(legal.len() as u32), "{preset:?} count");
                    }
                    if legal.is_empty() {
                        assert_eq!(state.random_move(&rules, |_| 0), None);
                        break;
                    }
                    let mv = legal[rng.random_range(0..legal.len())];
                    state.play(&rules, mv).expect("legal move");
                }
            }
        }
    }
}

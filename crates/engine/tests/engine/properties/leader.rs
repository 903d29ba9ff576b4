//! The leader a view shows while the low cards wait to be shuffled is the
//! seat that leads phase two once they are dealt.

use skit_engine::{Action, Awaiting, Phase};

use crate::properties::play::play;
use crate::properties::{GAMES, setups};

/// After the low-card shuffle the phase-two lead goes to the seat shown as
/// leader while it was awaited (the trump holder, SPEC 3.2), unless that
/// seat then holds no cards or is out of the game.
#[test]
fn the_leader_shown_before_the_low_cards_leads_phase_two() {
    let mut shuffles = 0;
    for (setup, mut rng) in setups(11, GAMES) {
        play(&setup, &mut rng, &mut |step, _| {
            let (Some(before), Some(Action::Shuffle(_))) = (step.before, step.log.last()) else {
                return;
            };
            if before.awaiting() != Awaiting::LowCards {
                return;
            }
            let after = step.state();
            let Some(shown) = before.leader() else {
                panic!(
                    "{}\nno leader shown while the low cards were awaited",
                    step.ctx()
                );
            };
            if after.phase() != Phase::Two || after.is_out(shown) || after.hand(shown).is_empty() {
                return;
            }
            shuffles += 1;
            assert_eq!(
                after.leader(),
                Some(shown),
                "{}\nseat {shown} was shown as leader while the low cards were awaited",
                step.ctx()
            );
        });
    }
    assert!(shuffles > 0, "no game dealt low cards");
}

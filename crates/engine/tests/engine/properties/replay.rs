//! Replaying the log, through its JSON form, reproduces every state and the
//! public history.

use serde_json::Value;
use skit_engine::{Action, State};

use crate::properties::play::play;
use crate::properties::{GAMES, setups};

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

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

mod conservation;
mod known;
mod leader;
mod legality;
mod malformed;
mod play;
mod records;
mod replay;
mod sample;
mod state_size;
mod view_dependence;
mod view_leaks;
mod world;

use std::fmt;

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};
use skit_engine::{Action, Card, Game, Preset, Rank, Ruleset, Seat, State, Suit};

/// Random games per ruleset and player count, in each test.
const GAMES: u64 = 2;

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

fn card(rank: u8, suit: usize) -> Card {
    Card::new(
        Rank::new(rank).expect("a rank from 2 to 14"),
        Suit::ALL[suit % 4],
    )
}

fn random_card(rng: &mut ChaCha8Rng) -> Card {
    card(rng.random_range(2..=14), rng.random_range(0..4))
}

//! One game as the Python package drives it, without Python: chance outcomes
//! drawn at once from the game's seed (as the service draws them), who acts
//! next, numbered legal actions, returns, and a replayable serialized form.

use serde_json::{Value, json};
use skit_engine::{Action, Game, Move, MoveKind, Phase, Ruleset, Seat};
use skit_fairness::{Seed, deal, outcome};

/// How a game began: a deal from a seed, a world sampled from another
/// game's state for one seat, or a service game's world (a seat's view and
/// one world of SampleWorlds).
#[derive(Clone, Debug)]
enum Origin {
    Deal {
        seed: Seed,
    },
    Sample {
        parent: String,
        viewer: Seat,
        seed: u64,
    },
    World {
        view: String,
        world: String,
        seed: u64,
    },
}

#[derive(Clone, Debug)]
pub struct Core {
    pub game: Game,
    /// The source of every chance outcome after the deal.
    seed: Seed,
    /// Chance outcomes drawn so far after the deal.
    shuffles: u64,
    origin: Origin,
    players: u8,
    /// Every action since the origin, chance outcomes included.
    actions: Vec<Action>,
}

/// A ruleset from a preset name or a ruleset's JSON text.
pub fn ruleset(text: &str) -> Result<Ruleset, String> {
    let value = if text.trim_start().starts_with('{') {
        serde_json::from_str(text).map_err(|e| format!("rules: {e}"))?
    } else {
        Value::String(text.to_owned())
    };
    Ruleset::from_json(&value).map_err(|e| format!("rules: {e}"))
}

/// The seed of a game's later chance outcomes when it did not begin with a
/// deal: `seed`, the seat and `kind` (1: resampled, 2: a service world),
/// apart from every deal seed made from a whole number.
fn sample_seed(seed: u64, seat: Seat, kind: u8) -> Seed {
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    bytes[8] = seat;
    bytes[9] = kind;
    Seed::from_bytes(bytes)
}

/// A seed from a whole number (its eight little-endian bytes, then zeros) or
/// from a service game's 64 hex characters.
pub fn seed_from_int(n: u64) -> Seed {
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&n.to_le_bytes());
    Seed::from_bytes(bytes)
}

pub fn seed_from_hex(text: &str) -> Result<Seed, String> {
    Seed::from_hex(text).map_err(|e| e.to_string())
}

impl Core {
    pub fn new_game(rules: Ruleset, players: u8, seed: Seed) -> Result<Core, String> {
        rules.check_players(players).map_err(|e| e.to_string())?;
        let (deck, dealer) = deal(&seed, players);
        let game = Game::deal(rules, players, dealer, &deck).map_err(|e| e.to_string())?;
        let mut core = Core {
            game,
            seed: seed.clone(),
            shuffles: 0,
            origin: Origin::Deal { seed },
            players,
            actions: Vec::new(),
        };
        core.draw_chance();
        Ok(core)
    }

    pub fn players(&self) -> u8 {
        self.players
    }

    /// Draws every awaited chance outcome, as the service would.
    fn draw_chance(&mut self) {
        loop {
            let awaited = self.game.state().awaited_cards();
            if awaited.is_empty() {
                return;
            }
            self.shuffles += 1;
            let action = Action::Shuffle(outcome(&self.seed, self.shuffles, awaited));
            if self.game.apply(&action).is_err() {
                return;
            }
            self.actions.push(action);
        }
    }

    /// The seat to act next: the seat whose turn it is, else (a sluffing
    /// window, which any seat may act in) the lowest seat with an action.
    /// `None` once the game is over.
    pub fn current_player(&self) -> Option<Seat> {
        let state = self.game.state();
        if state.phase() == Phase::Over {
            return None;
        }
        state
            .public_to_act()
            .iter()
            .chain(self.game.to_act().iter())
            .find(|&seat| !self.legal(seat).is_empty())
    }

    pub fn is_terminal(&self) -> bool {
        self.current_player().is_none()
    }

    /// `seat`'s numbered legal actions, ascending.
    pub fn legal(&self, seat: Seat) -> Vec<u32> {
        if seat >= self.players {
            return Vec::new();
        }
        let mut out: Vec<u32> = self
            .game
            .legal_moves_for(seat)
            .iter()
            .filter_map(|m| m.kind.index())
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Applies action number `n` for the seat to act; refused with the rule
    /// broken, the game unchanged.
    pub fn apply(&mut self, n: u32) -> Result<(), String> {
        let seat = self
            .current_player()
            .ok_or_else(|| "game_over: the game is over".to_owned())?;
        let kind = MoveKind::from_index(n)
            .ok_or_else(|| format!("no_such_action: {n} is not an action number"))?;
        let action = Action::Move(Move::new(seat, kind));
        self.game
            .apply(&action)
            .map_err(|e| format!("{}: seat {seat}: {e}", e.code()))?;
        self.actions.push(action);
        self.draw_chance();
        Ok(())
    }

    /// Per seat: -1 for the loser and 1/(n-1) for every other seat once the
    /// game is over (zero-sum), 0 for all in a draw or a game in progress.
    pub fn returns(&self) -> Vec<f64> {
        let n = usize::from(self.players);
        let mut out = vec![0.0; n];
        if let (Phase::Over, Some(loser)) = (self.game.state().phase(), self.game.state().loser()) {
            for (seat, r) in out.iter_mut().enumerate() {
                *r = if seat == usize::from(loser) {
                    -1.0
                } else {
                    1.0 / (n as f64 - 1.0)
                };
            }
        }
        out
    }

    /// A world `viewer` cannot tell from this one, sampled with `seed`.
    pub fn resample(&self, viewer: Seat, seed: u64) -> Result<Core, String> {
        let mut world = self
            .game
            .sample_worlds(Some(viewer), 1, seed)
            .map_err(|e| e.to_string())?;
        let game = world.pop().ok_or("no world sampled")?;
        Ok(Core {
            game,
            seed: sample_seed(seed, viewer, 1),
            shuffles: self.shuffles,
            origin: Origin::Sample {
                parent: self.serialize(),
                viewer,
                seed,
            },
            players: self.players,
            actions: Vec::new(),
        })
    }

    /// The service game `view` shows (GetView's JSON, whole history), its
    /// hidden cards placed as `world` (one world of SampleWorlds, as JSON)
    /// places them; later chance outcomes are drawn from `seed`.
    pub fn from_world(view: &str, world: &str, seed: u64) -> Result<Core, String> {
        let (game, seat) = crate::service::world_game(view, world, seed)?;
        let players = game.state().players();
        let mut core = Core {
            game,
            seed: sample_seed(seed, seat, 2),
            shuffles: 0,
            origin: Origin::World {
                view: view.to_owned(),
                world: world.to_owned(),
                seed,
            },
            players,
            actions: Vec::new(),
        };
        core.draw_chance();
        Ok(core)
    }

    /// JSON text from which [`Core::deserialize`] rebuilds this exact game.
    pub fn serialize(&self) -> String {
        let actions: Vec<Value> = self.actions.iter().map(Action::to_json).collect();
        let value = match &self.origin {
            Origin::Deal { seed } => json!({
                "rules": self.game.rules().to_json(),
                "players": self.players,
                "seed": seed.to_hex(),
                "actions": actions,
            }),
            Origin::Sample {
                parent,
                viewer,
                seed,
            } => json!({
                "sampled_from": parent,
                "viewer": viewer,
                "sample_seed": seed,
                "actions": actions,
            }),
            Origin::World { view, world, seed } => json!({
                "view": view,
                "world": world,
                "world_seed": seed,
                "actions": actions,
            }),
        };
        value.to_string()
    }

    pub fn deserialize(text: &str) -> Result<Core, String> {
        let value: Value = serde_json::from_str(text).map_err(|e| format!("state: {e}"))?;
        let field = |name: &str| value.get(name).ok_or_else(|| format!("state: no {name:?}"));
        let mut core = if let Some(parent) = value.get("sampled_from") {
            let parent = Core::deserialize(parent.as_str().ok_or("state: sampled_from is text")?)?;
            let viewer = field("viewer")?
                .as_u64()
                .and_then(|v| Seat::try_from(v).ok());
            let seed = field("sample_seed")?.as_u64();
            let (Some(viewer), Some(seed)) = (viewer, seed) else {
                return Err("state: viewer and sample_seed are whole numbers".into());
            };
            parent.resample(viewer, seed)?
        } else if let Some(view) = value.get("view") {
            let text = |v: &Value, name: &str| {
                v.as_str()
                    .map(str::to_owned)
                    .ok_or_else(|| format!("state: {name} is text"))
            };
            let seed = field("world_seed")?
                .as_u64()
                .ok_or("state: world_seed is a whole number")?;
            Core::from_world(&text(view, "view")?, &text(field("world")?, "world")?, seed)?
        } else {
            let rules = Ruleset::from_json(field("rules")?).map_err(|e| format!("rules: {e}"))?;
            let players = field("players")?
                .as_u64()
                .and_then(|p| u8::try_from(p).ok());
            let players = players.ok_or("state: players is a whole number")?;
            let seed = seed_from_hex(field("seed")?.as_str().ok_or("state: seed is hex text")?)?;
            // The deal awaits no chance outcome: the log below holds them all.
            Core::new_game(rules, players, seed)?
        };
        let actions = field("actions")?
            .as_array()
            .ok_or("state: actions is a list")?;
        for (i, action) in actions.iter().enumerate() {
            let action = Action::from_json(action).map_err(|e| format!("actions[{i}]: {e}"))?;
            core.game
                .apply(&action)
                .map_err(|e| format!("actions[{i}]: {}: {e}", e.code()))?;
            if matches!(action, Action::Shuffle(_)) {
                core.shuffles += 1;
            }
            core.actions.push(action);
        }
        core.draw_chance();
        Ok(core)
    }
}

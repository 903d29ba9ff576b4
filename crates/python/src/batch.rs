//! `skitgubbe.BatchEnv`: many games stepped together in Rust with the GIL
//! released, each step's results handed to NumPy as arrays that own the Rust
//! buffers (no copy). A finished game is replaced by the next deal at once.

use numpy::ndarray::{Array1, Array2};
use numpy::{IntoPyArray, PyArray1, PyArray2, PyReadonlyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use skit_engine::{Action, Move, MoveKind, NUM_ACTIONS, Ruleset};
use skit_fairness::Seed;

use crate::core::{Core, ruleset};
use crate::observe::{OBSERVATION_SIZE, observe};

/// What every step returns: observations, action masks and the seat to act
/// of each game (after any reset), the rewards of the step per game and
/// seat, and which games ended in it.
type Step<'py> = (
    Bound<'py, PyArray2<f32>>,
    Bound<'py, PyArray2<u8>>,
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray2<f32>>,
    Bound<'py, PyArray1<bool>>,
);

/// What a reset returns: observations, action masks and the seat to act.
type Reset<'py> = (
    Bound<'py, PyArray2<f32>>,
    Bound<'py, PyArray2<u8>>,
    Bound<'py, PyArray1<i64>>,
);

/// Many games of one ruleset and player count.
#[pyclass(name = "BatchEnv", module = "skitgubbe")]
#[derive(Debug)]
pub struct BatchEnv {
    rules: Ruleset,
    players: u8,
    seed: u64,
    /// Deals made so far: the next deal's number.
    deals: u64,
    games: Vec<Core>,
}

/// The seed of deal number `deal` of a batch seeded with `seed`.
fn deal_seed(seed: u64, deal: u64) -> Seed {
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    bytes[8..16].copy_from_slice(&deal.to_le_bytes());
    bytes[16] = 2; // apart from single games' seeds
    Seed::from_bytes(bytes)
}

impl BatchEnv {
    fn deal(&mut self) -> Result<Core, String> {
        let core = Core::new_game(self.rules, self.players, deal_seed(self.seed, self.deals))?;
        self.deals += 1;
        Ok(core)
    }

    /// Observations, masks and seats to act of every game, into owned buffers.
    fn observe_all(&self) -> (Vec<f32>, Vec<u8>, Vec<i64>) {
        let n = self.games.len();
        let mut obs = vec![0.0f32; n * OBSERVATION_SIZE];
        let mut mask = vec![0u8; n * NUM_ACTIONS as usize];
        let mut to_act = vec![crate::state::TERMINAL; n];
        for (i, core) in self.games.iter().enumerate() {
            if let Some(seat) = core.current_player() {
                to_act[i] = i64::from(seat);
                observe(
                    &core.game,
                    seat,
                    &mut obs[i * OBSERVATION_SIZE..(i + 1) * OBSERVATION_SIZE],
                );
                let row = &mut mask[i * NUM_ACTIONS as usize..(i + 1) * NUM_ACTIONS as usize];
                for a in core.legal(seat) {
                    row[a as usize] = 1;
                }
            }
        }
        (obs, mask, to_act)
    }

    fn arrays<'py>(
        &self,
        py: Python<'py>,
        (obs, mask, to_act): (Vec<f32>, Vec<u8>, Vec<i64>),
        rewards: Vec<f32>,
        done: Vec<bool>,
    ) -> PyResult<Step<'py>> {
        let n = self.games.len();
        let shape = |e: numpy::ndarray::ShapeError| PyValueError::new_err(e.to_string());
        Ok((
            Array2::from_shape_vec((n, OBSERVATION_SIZE), obs)
                .map_err(shape)?
                .into_pyarray(py),
            Array2::from_shape_vec((n, NUM_ACTIONS as usize), mask)
                .map_err(shape)?
                .into_pyarray(py),
            Array1::from_vec(to_act).into_pyarray(py),
            Array2::from_shape_vec((n, usize::from(self.players)), rewards)
                .map_err(shape)?
                .into_pyarray(py),
            Array1::from_vec(done).into_pyarray(py),
        ))
    }
}

#[pymethods]
impl BatchEnv {
    /// `games` games of `preset` (a preset name or a ruleset's JSON) for
    /// `players`, dealt from `seed`.
    #[new]
    #[pyo3(signature = (preset="skitgubbe", players=3, games=64, seed=0))]
    fn new(preset: &str, players: u8, games: usize, seed: u64) -> PyResult<BatchEnv> {
        if games == 0 {
            return Err(PyValueError::new_err("games: at least one game"));
        }
        let rules = ruleset(preset).map_err(PyValueError::new_err)?;
        let mut env = BatchEnv {
            rules,
            players,
            seed,
            deals: 0,
            games: Vec::with_capacity(games),
        };
        for _ in 0..games {
            let core = env.deal().map_err(PyValueError::new_err)?;
            env.games.push(core);
        }
        Ok(env)
    }

    #[getter]
    fn num_games(&self) -> usize {
        self.games.len()
    }

    /// Deals every game anew from `seed`; returns (observations, masks, to_act).
    #[pyo3(signature = (seed=None))]
    fn reset<'py>(&mut self, py: Python<'py>, seed: Option<u64>) -> PyResult<Reset<'py>> {
        if let Some(seed) = seed {
            self.seed = seed;
        }
        self.deals = 0;
        for i in 0..self.games.len() {
            self.games[i] = self.deal().map_err(PyValueError::new_err)?;
        }
        let observed = py.detach(|| self.observe_all());
        let n = self.games.len();
        let (obs, mask, to_act, _, _) = self.arrays(
            py,
            observed,
            vec![0.0; n * usize::from(self.players)],
            vec![false; n],
        )?;
        Ok((obs, mask, to_act))
    }

    /// Plays `actions[i]` (an action number) in game i for its seat to act.
    /// Every action is checked before any is played: one illegal action
    /// raises ValueError naming the game and the rule, and no game moves.
    /// Returns (observations, masks, to_act, rewards, done); a game that
    /// ended has its rewards in this step and is already dealt anew.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: PyReadonlyArray1<'py, i64>,
    ) -> PyResult<Step<'py>> {
        let actions = actions.as_slice()?.to_vec();
        if actions.len() != self.games.len() {
            return Err(PyValueError::new_err(format!(
                "actions: {} actions for {} games",
                actions.len(),
                self.games.len()
            )));
        }
        let mut moves = Vec::with_capacity(actions.len());
        for (i, (&a, core)) in actions.iter().zip(&self.games).enumerate() {
            let kind = u32::try_from(a).ok().and_then(MoveKind::from_index);
            let kind = kind.ok_or_else(|| {
                PyValueError::new_err(format!("actions[{i}]: {a} is not an action number"))
            })?;
            let seat = core.current_player().ok_or_else(|| {
                PyValueError::new_err(format!("actions[{i}]: game {i} has no seat to act"))
            })?;
            let mv = Move::new(seat, kind);
            core.game
                .state()
                .check(core.game.rules(), mv)
                .map_err(|e| PyValueError::new_err(format!("actions[{i}]: {}: {e}", e.code())))?;
            moves.push(Action::Move(mv));
        }
        let players = usize::from(self.players);
        let result = py.detach(|| -> Result<_, String> {
            let mut rewards = vec![0.0f32; self.games.len() * players];
            let mut done = vec![false; self.games.len()];
            for (i, action) in moves.iter().enumerate() {
                let Action::Move(mv) = action else { continue };
                let n = mv.kind.index().unwrap_or_default();
                self.games[i].apply(n)?;
                if self.games[i].is_terminal() {
                    for (r, v) in rewards[i * players..]
                        .iter_mut()
                        .zip(self.games[i].returns())
                    {
                        *r = v as f32;
                    }
                    done[i] = true;
                    self.games[i] = self.deal()?;
                }
            }
            Ok((self.observe_all(), rewards, done))
        });
        let (observed, rewards, done) = result.map_err(PyValueError::new_err)?;
        self.arrays(py, observed, rewards, done)
    }
}

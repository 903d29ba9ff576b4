//! `skitgubbe.State`: one game with OpenSpiel's method names.

use numpy::{IntoPyArray, PyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use skit_engine::{MoveKind, NUM_ACTIONS, Seat};

use crate::core::Core;
use crate::observe::{OBSERVATION_SIZE, observe};

/// OpenSpiel's player id for a finished game (`pyspiel.PlayerId.TERMINAL`).
pub const TERMINAL: i64 = -4;

/// A game in progress, as OpenSpiel's `pyspiel.State` names things.
#[pyclass(name = "State", module = "skitgubbe", skip_from_py_object)]
#[derive(Clone, Debug)]
pub struct PyState {
    pub core: Core,
}

fn seat(core: &Core, player: i64) -> PyResult<Seat> {
    Seat::try_from(player)
        .ok()
        .filter(|&s| s < core.players())
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "player: {player} is not a seat of this {}-player game",
                core.players()
            ))
        })
}

#[pymethods]
impl PyState {
    /// The seat to act, or -4 (OpenSpiel's terminal id) once the game is over.
    fn current_player(&self) -> i64 {
        self.core.current_player().map_or(TERMINAL, i64::from)
    }

    fn is_terminal(&self) -> bool {
        self.core.is_terminal()
    }

    fn num_players(&self) -> usize {
        usize::from(self.core.players())
    }

    fn num_distinct_actions(&self) -> u32 {
        NUM_ACTIONS
    }

    /// The numbered legal actions of `player` (default: the seat to act), ascending.
    #[pyo3(signature = (player=None))]
    fn legal_actions(&self, player: Option<i64>) -> PyResult<Vec<u32>> {
        match player {
            Some(p) => Ok(self.core.legal(seat(&self.core, p)?)),
            None => Ok(self
                .core
                .current_player()
                .map(|s| self.core.legal(s))
                .unwrap_or_default()),
        }
    }

    /// A 0/1 array over every action number: 1 where the action is legal.
    #[pyo3(signature = (player=None))]
    fn legal_actions_mask<'py>(
        &self,
        py: Python<'py>,
        player: Option<i64>,
    ) -> PyResult<Bound<'py, PyArray1<u8>>> {
        let mut mask = vec![0u8; NUM_ACTIONS as usize];
        for a in self.legal_actions(player)? {
            mask[a as usize] = 1;
        }
        Ok(mask.into_pyarray(py))
    }

    /// Plays action number `action` for the seat to act; a refused action
    /// raises ValueError naming the rule and leaves the state unchanged.
    fn apply_action(&mut self, action: u32) -> PyResult<()> {
        self.core.apply(action).map_err(PyValueError::new_err)
    }

    /// The action number the service's `strategy` bot (`"random"`,
    /// `"greedy"`, `"search"` or `"ismcts"`) chooses for `player` from
    /// that seat's view only, seeded with `seed`; None when the seat may
    /// not act. A rollout policy for a search, or an opponent to train
    /// against.
    #[pyo3(signature = (player, strategy="greedy", seed=0))]
    fn bot_action(&self, player: i64, strategy: &str, seed: u64) -> PyResult<Option<u32>> {
        let seat = seat(&self.core, player)?;
        crate::bots::bot_action(&self.core.game, seat, strategy, seed)
            .map_err(PyValueError::new_err)
    }

    /// A copy with `action` applied.
    fn child(&self, action: u32) -> PyResult<PyState> {
        let mut next = self.clone();
        next.apply_action(action)?;
        Ok(next)
    }

    /// Per seat: -1 for the loser, 1/(n-1) for the others, 0 in a draw or
    /// while the game is on.
    fn returns(&self) -> Vec<f64> {
        self.core.returns()
    }

    /// `player`'s observation: a float32 array of OBSERVATION_SIZE.
    fn observation_tensor<'py>(
        &self,
        py: Python<'py>,
        player: i64,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let seat = seat(&self.core, player)?;
        let mut out = vec![0.0f32; OBSERVATION_SIZE];
        observe(&self.core.game, seat, &mut out);
        Ok(out.into_pyarray(py))
    }

    /// `player`'s whole view as JSON, public history included: equal for
    /// every two states the seat cannot tell apart.
    fn information_state_string(&self, player: i64) -> PyResult<String> {
        let view = self.core.game.view(Some(seat(&self.core, player)?));
        serde_json::to_string(&view).map_err(|e| PyValueError::new_err(e.to_string()))
    }

    /// `player`'s view as JSON without the history.
    fn observation_string(&self, player: i64) -> PyResult<String> {
        let view = self
            .core
            .game
            .view_since(Some(seat(&self.core, player)?), usize::MAX);
        serde_json::to_string(&view).map_err(|e| PyValueError::new_err(e.to_string()))
    }

    /// A state `player` cannot tell from this one, its hidden cards drawn
    /// uniformly (docs/engine.md, sampled worlds) with `seed`.
    fn resample_from_infostate(&self, player: i64, seed: u64) -> PyResult<PyState> {
        let seat = seat(&self.core, player)?;
        let core = self
            .core
            .resample(seat, seed)
            .map_err(PyValueError::new_err)?;
        Ok(PyState { core })
    }

    /// JSON text that `deserialize` turns back into this exact state.
    fn serialize(&self) -> String {
        self.core.serialize()
    }

    #[staticmethod]
    fn deserialize(text: &str) -> PyResult<PyState> {
        let core = Core::deserialize(text).map_err(PyValueError::new_err)?;
        Ok(PyState { core })
    }

    /// Action number `action` as the API's JSON action object.
    fn action_to_string(&self, action: u32) -> PyResult<String> {
        action_json(action)
    }

    fn clone(&self) -> PyState {
        Clone::clone(self)
    }

    fn __copy__(&self) -> PyState {
        Clone::clone(self)
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyState {
        Clone::clone(self)
    }

    fn __str__(&self) -> PyResult<String> {
        let view = self.core.game.view_since(None, usize::MAX);
        serde_json::to_string(&view).map_err(|e| PyValueError::new_err(e.to_string()))
    }

    fn __repr__(&self) -> String {
        format!(
            "<skitgubbe.State {} players, to act {}>",
            self.core.players(),
            self.current_player()
        )
    }
}

/// Action number `n` as the API's JSON action object, or ValueError.
pub fn action_json(n: u32) -> PyResult<String> {
    let kind = MoveKind::from_index(n)
        .ok_or_else(|| PyValueError::new_err(format!("action: {n} is not an action number")))?;
    Ok(kind.to_json().to_string())
}

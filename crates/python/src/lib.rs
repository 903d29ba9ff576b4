//! `skitgubbe`: the exact Skitgubbe-family rules engine for Python.
//!
//! The native half of the package (`skitgubbe._skitgubbe`): OpenSpiel-style
//! [`state::PyState`], the batched environment [`batch::BatchEnv`], and the
//! fixed action numbering. The PettingZoo environment is Python
//! (`python/skitgubbe/aec.py`) on top of these. See docs/python.md.

mod batch;
mod bots;
mod core;
mod observe;
mod service;
mod state;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use skit_engine::{MoveKind, NUM_ACTIONS, Preset};

use crate::core::{Core, ruleset, seed_from_hex, seed_from_int};
use crate::state::PyState;

/// A new game of `preset` (a preset name, or a ruleset's JSON text) for
/// `players`, dealt from `seed`: a whole number, or a service game's 64-hex
/// seed, which deals exactly that game.
#[pyfunction]
#[pyo3(signature = (preset="skitgubbe", players=3, seed=None))]
fn new_game(preset: &str, players: u8, seed: Option<&Bound<'_, PyAny>>) -> PyResult<PyState> {
    let rules = ruleset(preset).map_err(PyValueError::new_err)?;
    let seed = if let Some(seed) = seed {
        parse_seed(seed)?
    } else {
        seed_from_int(0)
    };
    let core = Core::new_game(rules, players, seed).map_err(PyValueError::new_err)?;
    Ok(PyState { core })
}

/// A whole number or 64 hex characters.
fn parse_seed(seed: &Bound<'_, PyAny>) -> PyResult<skit_fairness::Seed> {
    Ok(if let Ok(n) = seed.extract::<u64>() {
        seed_from_int(n)
    } else if let Ok(text) = seed.extract::<String>() {
        seed_from_hex(&text).map_err(|e| PyValueError::new_err(format!("seed: {e}")))?
    } else {
        return Err(PyValueError::new_err(
            "seed: a whole number from 0 to 2**64-1, or 64 hex characters",
        ));
    })
}

/// The state `serialize` wrote.
#[pyfunction]
fn deserialize_state(text: &str) -> PyResult<PyState> {
    let core = Core::deserialize(text).map_err(PyValueError::new_err)?;
    Ok(PyState { core })
}

/// The service game a seat's `view` shows (GetView's JSON text, fetched
/// with the whole history) with its hidden cards placed as `world` (one
/// world of SampleWorlds, as JSON text) places them: a state that seat
/// cannot tell from the real one, to search from. `seed` draws the game's
/// later chance outcomes.
#[pyfunction]
#[pyo3(signature = (view, world, seed=0))]
fn from_world(view: &str, world: &str, seed: u64) -> PyResult<PyState> {
    let core = Core::from_world(view, world, seed).map_err(PyValueError::new_err)?;
    Ok(PyState { core })
}

/// Action number `n` as the API's JSON action object (without a seat).
#[pyfunction]
fn action_to_json(n: u32) -> PyResult<String> {
    state::action_json(n)
}

/// The number of an API JSON action object (`{"play": ["7C"]}`).
#[pyfunction]
fn action_from_json(text: &str) -> PyResult<u32> {
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| PyValueError::new_err(format!("action: {e}")))?;
    let object = value
        .as_object()
        .ok_or_else(|| PyValueError::new_err("action: a JSON object"))?;
    let kind = MoveKind::from_fields(object).map_err(|e| PyValueError::new_err(e.to_string()))?;
    kind.index()
        .ok_or_else(|| PyValueError::new_err(format!("action: {text} has no number")))
}

#[pymodule]
fn _skitgubbe(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyState>()?;
    m.add_class::<batch::BatchEnv>()?;
    m.add_function(wrap_pyfunction!(new_game, m)?)?;
    m.add_function(wrap_pyfunction!(deserialize_state, m)?)?;
    m.add_function(wrap_pyfunction!(from_world, m)?)?;
    m.add_function(wrap_pyfunction!(action_to_json, m)?)?;
    m.add_function(wrap_pyfunction!(action_from_json, m)?)?;
    m.add("NUM_ACTIONS", NUM_ACTIONS)?;
    m.add("OBSERVATION_SIZE", observe::OBSERVATION_SIZE)?;
    m.add("TERMINAL", state::TERMINAL)?;
    let presets: Vec<&str> = Preset::ALL.iter().map(|p| p.name()).collect();
    m.add("PRESETS", presets)?;
    let ranges: Vec<(&str, u8, u8)> = Preset::ALL
        .iter()
        .map(|p| {
            let (lo, hi) = p.players();
            (p.name(), lo, hi)
        })
        .collect();
    m.add("PLAYERS", ranges)?;
    Ok(())
}

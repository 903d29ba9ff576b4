"""The exact Skitgubbe-family rules engine (the service's own, compiled in).

- ``new_game(preset, players, seed)``: an OpenSpiel-style ``State``.
- ``env(preset=..., players=...)``: a PettingZoo AEC environment.
- ``BatchEnv(preset, players, games, seed)``: many games stepped in Rust.
- ``from_world(view, world, seed)``: a service game's state from a seat's
  view and one of its sampled worlds, to search from; ``skitgubbe.client``
  is a client for the service.

See docs/python.md in the repository.
"""

from ._skitgubbe import (
    NUM_ACTIONS,
    OBSERVATION_SIZE,
    PLAYERS,
    PRESETS,
    TERMINAL,
    BatchEnv,
    State,
    action_from_json,
    action_to_json,
    deserialize_state,
    from_world,
    new_game,
)


def env(preset="skitgubbe", players=3, render_mode=None):
    """The PettingZoo AEC environment for ``preset`` and ``players``, wrapped
    as PettingZoo's classic environments are. Needs ``pettingzoo``."""
    from .aec import env as _env

    return _env(preset=preset, players=players, render_mode=render_mode)


__all__ = [
    "NUM_ACTIONS",
    "OBSERVATION_SIZE",
    "PLAYERS",
    "PRESETS",
    "TERMINAL",
    "BatchEnv",
    "State",
    "action_from_json",
    "action_to_json",
    "deserialize_state",
    "env",
    "from_world",
    "new_game",
]

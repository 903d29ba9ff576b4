"""PettingZoo AEC environment over the exact engine, named and wrapped the
way PettingZoo's classic environments (``chess_v6``, ``texas_holdem_v4``)
are: ``env()`` wraps ``raw_env`` in the illegal-move, bounds and order
wrappers, observations are ``{"observation", "action_mask"}`` dicts, and the
rewards come at the end of the game (-1 for the loser, 1/(n-1) for the
others, 0 in a draw)."""

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ._skitgubbe import NUM_ACTIONS, OBSERVATION_SIZE, new_game


def env(preset="skitgubbe", players=3, render_mode=None):
    e = raw_env(preset=preset, players=players, render_mode=render_mode)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


class raw_env(AECEnv):
    metadata = {
        "render_modes": ["human", "ansi"],
        "name": "skitgubbe_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(self, preset="skitgubbe", players=3, render_mode=None):
        super().__init__()
        self.preset = preset
        self.players = players
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agents = self.possible_agents[:]
        observation = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (OBSERVATION_SIZE,), np.float32),
                "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
            }
        )
        self.observation_spaces = {a: observation for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}
        self._rng = np.random.default_rng()
        self.state = None
        # Checks the preset and the player count at once.
        new_game(preset, players, 0)

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None):
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        deal = int(self._rng.integers(0, 2**63))
        self.state = new_game(self.preset, self.players, deal)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.agents[self.state.current_player()]

    def observe(self, agent):
        seat = self.possible_agents.index(agent)
        mask = np.zeros(NUM_ACTIONS, np.int8)
        if agent == self.agent_selection and not self.state.is_terminal():
            mask[self.state.legal_actions(seat)] = 1
        return {"observation": self.state.observation_tensor(seat), "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        self._cumulative_rewards[agent] = 0
        self.state.apply_action(int(action))
        if self.state.is_terminal():
            for a, r in zip(self.possible_agents, self.state.returns()):
                self.rewards[a] = r
                self.terminations[a] = True
        else:
            self.agent_selection = self.possible_agents[self.state.current_player()]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self):
        if self.render_mode is None:
            return None
        text = str(self.state)
        if self.render_mode == "human":
            print(text)
        return text

    def close(self):
        pass

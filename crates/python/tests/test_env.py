"""The PettingZoo AEC environment passes PettingZoo's own API and seed tests
for every preset."""

import pytest
from pettingzoo.test import api_test, seed_test

import skitgubbe
from conftest import cases


@pytest.mark.parametrize("preset,players", cases())
def test_api_test_passes(preset, players):
    api_test(skitgubbe.env(preset=preset, players=players), num_cycles=300)


@pytest.mark.parametrize("preset,players", cases())
def test_seed_test_passes(preset, players):
    seed_test(lambda: skitgubbe.env(preset=preset, players=players), num_cycles=300)


def test_the_environment_is_named_like_pettingzoos_classic_ones():
    env = skitgubbe.env(preset="mas", players=2)
    assert env.metadata["name"] == "skitgubbe_v0"
    env.reset(seed=3)
    assert env.possible_agents == ["player_0", "player_1"]
    obs, reward, termination, truncation, info = env.last()
    assert set(obs) == {"observation", "action_mask"}
    assert obs["action_mask"].sum() >= 1


def test_a_bad_preset_or_player_count_is_refused():
    with pytest.raises(ValueError, match="rules"):
        skitgubbe.env(preset="no-such-game", players=3)
    with pytest.raises(ValueError, match="players"):
        skitgubbe.env(preset="atlanta", players=4)

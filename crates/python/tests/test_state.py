"""The OpenSpiel-style state: whole games of every preset, refusals,
serialization, resampling, and the action numbering shared with the API."""

import json
import random

import numpy as np
import pytest

import skitgubbe
from conftest import cases


def play(state, rng, steps=None):
    taken = []
    while not state.is_terminal() and (steps is None or len(taken) < steps):
        legal = state.legal_actions()
        assert legal, f"no legal action but not terminal: {state!r}"
        action = rng.choice(legal)
        state.apply_action(action)
        taken.append(action)
    return taken


@pytest.mark.parametrize("preset,players", cases())
def test_random_games_end_with_zero_sum_returns(preset, players):
    rng = random.Random(7)
    for seed in range(3):
        state = skitgubbe.new_game(preset, players, seed)
        assert state.num_players() == players
        play(state, rng)
        assert state.current_player() == skitgubbe.TERMINAL
        returns = state.returns()
        assert len(returns) == players
        assert abs(sum(returns)) < 1e-9
        assert sorted(returns)[0] in (-1.0, 0.0)


def test_an_illegal_action_is_refused_naming_the_rule_and_changes_nothing():
    state = skitgubbe.new_game("skitgubbe", 3, 1)
    play(state, random.Random(1), steps=5)
    before = state.serialize()
    illegal = next(a for a in range(skitgubbe.NUM_ACTIONS) if a not in state.legal_actions())
    with pytest.raises(ValueError, match=r"card_not_held|not_your_turn|chance|pickup|pass|claim|rob|bank|play"):
        state.apply_action(illegal)
    assert state.serialize() == before
    with pytest.raises(ValueError, match="not an action number"):
        state.apply_action(skitgubbe.NUM_ACTIONS)


@pytest.mark.parametrize("preset,players", cases())
def test_serialize_then_deserialize_is_the_same_game(preset, players):
    rng = random.Random(3)
    state = skitgubbe.new_game(preset, players, 11)
    play(state, rng, steps=40)
    copy = skitgubbe.deserialize_state(state.serialize())
    assert copy.serialize() == state.serialize()
    for p in range(players):
        assert copy.information_state_string(p) == state.information_state_string(p)
    # Both go on identically.
    for _ in range(20):
        if state.is_terminal():
            break
        action = rng.choice(state.legal_actions())
        state.apply_action(action)
        copy.apply_action(action)
        assert copy.serialize() == state.serialize()


@pytest.mark.parametrize("preset,players", cases())
def test_resampled_states_look_the_same_to_the_seat(preset, players):
    rng = random.Random(5)
    state = skitgubbe.new_game(preset, players, 21)
    for _ in range(6):
        play(state, rng, steps=9)
        if state.is_terminal():
            break
        for p in range(players):
            worlds = [state.resample_from_infostate(p, seed) for seed in range(4)]
            for world in worlds:
                assert world.information_state_string(p) == state.information_state_string(p)
                assert world.legal_actions(p) == state.legal_actions(p)
                assert world.current_player() == state.current_player()
                assert np.array_equal(world.observation_tensor(p), state.observation_tensor(p))
                again = skitgubbe.deserialize_state(world.serialize())
                assert again.serialize() == world.serialize()
            # Seeded: the same seed gives the same world.
            assert state.resample_from_infostate(p, 2).serialize() == worlds[2].serialize()


def test_a_resampled_world_plays_on_to_its_end():
    rng = random.Random(9)
    state = skitgubbe.new_game("allplay", 4, 2)
    play(state, rng, steps=30)
    world = state.resample_from_infostate(1, 99)
    play(world, rng)
    assert world.is_terminal()


def test_action_numbers_are_the_api_actions():
    assert json.loads(skitgubbe.action_to_json(0)) == {"play": ["2C"]}
    assert json.loads(skitgubbe.action_to_json(51)) == {"play": ["AS"]}
    assert skitgubbe.action_from_json('{"pickup": true}') == 495
    assert skitgubbe.action_from_json('{"play": ["7d", "8D"]}') == skitgubbe.action_from_json(
        '{"play": ["8D", "7D"]}'
    )
    with pytest.raises(ValueError):
        skitgubbe.action_to_json(skitgubbe.NUM_ACTIONS)
    rng = random.Random(4)
    for preset, players in cases():
        state = skitgubbe.new_game(preset, players, 4)
        for _ in range(60):
            if state.is_terminal():
                break
            for a in state.legal_actions():
                assert skitgubbe.action_from_json(skitgubbe.action_to_json(a)) == a
            state.apply_action(rng.choice(state.legal_actions()))


def test_the_observation_tensor_shows_the_seats_own_hand():
    state = skitgubbe.new_game("skitgubbe", 3, 8)
    for p in range(3):
        obs = state.observation_tensor(p)
        assert obs.dtype == np.float32 and obs.shape == (skitgubbe.OBSERVATION_SIZE,)
        assert obs.min() >= 0.0 and obs.max() <= 1.0
        hand = json.loads(state.information_state_string(p))["hand"]
        ranks = "23456789TJQKA"
        expected = sorted(ranks.index(c[0]) * 4 + "CDHS".index(c[1]) for c in hand)
        assert list(np.flatnonzero(obs[:52])) == expected


def test_a_seed_deals_the_same_game_and_hex_seeds_are_accepted():
    a = skitgubbe.new_game("mas", 3, 42)
    b = skitgubbe.new_game("mas", 3, 42)
    assert a.serialize() == b.serialize()
    assert a.serialize() != skitgubbe.new_game("mas", 3, 43).serialize()
    hexed = skitgubbe.new_game("mas", 3, "2a" + "00" * 31)
    assert hexed.information_state_string(0) == a.information_state_string(0)
    with pytest.raises(ValueError, match="seed"):
        skitgubbe.new_game("mas", 3, "xyz")
    with pytest.raises(ValueError, match="players"):
        skitgubbe.new_game("mas", 9, 1)


@pytest.mark.parametrize("preset,players", cases())
def test_the_service_bots_choose_legal_actions_to_the_end(preset, players):
    state = skitgubbe.new_game(preset, players, 3)
    steps = 0
    while not state.is_terminal() and steps < 3000:
        seat = state.current_player()
        choice = state.bot_action(seat, "greedy" if seat else "random", seed=steps)
        assert choice in state.legal_actions(seat)
        state.apply_action(choice)
        steps += 1
    assert state.is_terminal()


def test_a_bot_action_names_a_known_strategy_and_never_the_omniscient_one():
    state = skitgubbe.new_game("skitgubbe", 3, 1)
    with pytest.raises(ValueError, match="random, greedy, search, ismcts"):
        state.bot_action(0, "clever")
    with pytest.raises(ValueError, match="omniscient"):
        state.bot_action(0, "omniscient")
    waiting = [s for s in range(3) if not state.legal_actions(s)]
    assert waiting and state.bot_action(waiting[0]) is None

"""The batched environment: shapes, NumPy arrays that own Rust's buffers
(no copy), deterministic seeding, finished games dealt anew, and refusals
that move no game."""

import numpy as np
import pytest

import skitgubbe


def random_actions(mask, rng):
    return (rng.random(mask.shape) * mask).argmax(axis=1).astype(np.int64)


def test_steps_return_arrays_that_own_rusts_buffers():
    batch = skitgubbe.BatchEnv("skitgubbe", 3, 8, 1)
    obs, mask, to_act = batch.reset()
    assert obs.shape == (8, skitgubbe.OBSERVATION_SIZE) and obs.dtype == np.float32
    assert mask.shape == (8, skitgubbe.NUM_ACTIONS) and mask.dtype == np.uint8
    assert to_act.shape == (8,)
    obs, mask, to_act, rewards, done = batch.step(random_actions(mask, np.random.default_rng(0)))
    assert rewards.shape == (8, 3) and done.shape == (8,)
    for array in (obs, mask, to_act, rewards, done):
        # Not NumPy's own allocation, nor a copy of another array: the Rust buffer.
        assert not array.flags.owndata
        assert array.base is not None and not isinstance(array.base, np.ndarray)


def test_the_same_seed_and_actions_give_the_same_games():
    rng_a, rng_b = np.random.default_rng(5), np.random.default_rng(5)
    a, b = skitgubbe.BatchEnv("allplay", 4, 16, 9), skitgubbe.BatchEnv("allplay", 4, 16, 9)
    _, mask_a, _ = a.reset()
    _, mask_b, _ = b.reset()
    for _ in range(50):
        out_a = a.step(random_actions(mask_a, rng_a))
        out_b = b.step(random_actions(mask_b, rng_b))
        for x, y in zip(out_a, out_b):
            assert np.array_equal(x, y)
        mask_a, mask_b = out_a[1], out_b[1]


def test_finished_games_pay_out_and_are_dealt_anew():
    batch = skitgubbe.BatchEnv("two-player", 2, 32, 3)
    _, mask, _ = batch.reset()
    rng = np.random.default_rng(2)
    finished = 0
    for _ in range(3000):
        _, mask, to_act, rewards, done = batch.step(random_actions(mask, rng))
        finished += int(done.sum())
        assert np.allclose(rewards.sum(axis=1), 0.0)
        assert (rewards[~done] == 0).all()
        assert (to_act >= 0).all() and (mask.sum(axis=1) >= 1).all()
        if finished >= 10:
            break
    assert finished >= 10


def test_one_illegal_action_moves_no_game():
    batch, twin = skitgubbe.BatchEnv("skitgubbe", 3, 4, 1), skitgubbe.BatchEnv("skitgubbe", 3, 4, 1)
    _, mask, _ = batch.reset()
    twin.reset()
    legal = random_actions(mask, np.random.default_rng(1))
    actions = legal.copy()
    actions[2] = int(np.flatnonzero(mask[2] == 0)[0])
    with pytest.raises(ValueError, match=r"actions\[2\]"):
        batch.step(actions)
    # The refused step changed nothing: both go on alike.
    for x, y in zip(batch.step(legal), twin.step(legal)):
        assert np.array_equal(x, y)

"""Turns per second: PettingZoo's ``performance_benchmark`` on the AEC
environment, then the batched environment at 1, 64 and 1,024 games.

    python -m skitgubbe.bench [--preset skitgubbe] [--players 3] [--seconds 5]
"""

import argparse
import time

import numpy as np

from . import BatchEnv, env


def batched(preset, players, games, seconds):
    batch = BatchEnv(preset, players, games, 1)
    _, mask, _ = batch.reset()
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        # Each game's lowest-numbered legal action (its lowest card, when it
        # may play one): cheap to pick, so the figure is the environment's.
        actions = mask.argmax(axis=1).astype(np.int64)
        _, mask, _, _, _ = batch.step(actions)
        steps += 1
    elapsed = time.perf_counter() - start
    return steps * games / elapsed, steps / elapsed


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="skitgubbe")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    from pettingzoo.test import performance_benchmark

    print(f"preset {args.preset}, {args.players} players")
    print("PettingZoo performance_benchmark (AEC, one game):")
    performance_benchmark(env(args.preset, args.players))
    for games in (1, 64, 1024):
        turns, steps = batched(args.preset, args.players, games, args.seconds)
        print(f"BatchEnv {games:>5} games: {turns:>12,.0f} turns/s ({steps:,.1f} batched steps/s)")


if __name__ == "__main__":
    main()

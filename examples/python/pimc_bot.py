#!/usr/bin/env python3
"""A PIMC bot (perfect-information Monte Carlo) for the Skitgubbe service.

For each decision it reads its seat's view, asks the service for sampled
worlds (SampleWorlds: every hidden card placed anew, consistent with what
the seat knows), makes each world a whole game with the local engine
(``skitgubbe.from_world``), plays every legal action in every world to the
end with every seat playing the service's greedy bot (``State.bot_action``),
and submits the action with the best average result. Needs the ``skitgubbe`` package (crates/python,
docs/python.md).

    SKIT_TOKEN=skt_... python pimc_bot.py --url http://127.0.0.1:50051 --until-done
"""

import argparse
import json
import os
import sys

import skitgubbe
from skitgubbe.client import Client, ServiceError

def rollout(state, seat):
    """``seat``'s return once ``state`` is played out with every seat
    following the service's greedy bot (``State.bot_action``)."""
    while not state.is_terminal():
        state.apply_action(state.bot_action(state.current_player(), "greedy"))
    return state.returns()[seat]


def number(action):
    """An API action (``{"play": {"cards": ["7C"]}}``) as the engine's
    action number."""
    (kind, value), = action.items()
    value = value["cards"] if isinstance(value, dict) else value
    return skitgubbe.action_from_json(json.dumps({kind: value}))


def decide(client, game_id, seat, worlds):
    """The view the decision was made on, and the chosen legal action."""
    view = client.view(game_id, seat)
    legal = view["legalActions"]
    numbers = [number(a) for a in legal]
    if len(legal) <= 1:  # nothing to weigh (or the turn has passed)
        return view, legal[0] if legal else None
    version = int(view["version"])
    sampled = client.sample_worlds(game_id, seat, worlds, seed=version, min_version=version)
    if sampled["version"] != view["version"]:
        return decide(client, game_id, seat, worlds)  # the game moved on
    text = json.dumps(view)
    totals = dict.fromkeys(numbers, 0.0)
    for i, world in enumerate(sampled["worlds"]):
        try:
            state = skitgubbe.from_world(text, json.dumps(world), seed=version + i)
        except ValueError:
            continue  # a history the local engine could not rebuild
        if state.current_player() != seat:
            # A window (a sluff, a rob) where another seat is asked first:
            # the greedy bot's choice, from this seat's view.
            return view, legal[numbers.index(state.bot_action(seat, "greedy"))]
        for n in numbers:
            totals[n] += rollout(state.child(n), seat)
    best = max(numbers, key=lambda n: (totals[n], -n))
    return view, legal[numbers.index(best)]


def play(client, worlds, until_done=True, wait_ms=30000, log=print):
    """Plays every turn of the client's account until its games are over."""
    for game_id, seat in client.turns(wait_ms=wait_ms, until_done=until_done):
        view, action = decide(client, game_id, seat, worlds)
        if action is None:
            continue
        try:
            answer = client.submit(game_id, seat, view, action)
        except ServiceError as e:
            if e.status != 409:  # a stale view or a window now closed: read again
                raise
            continue
        if answer["view"]["phase"] == "PHASE_OVER":
            log(f"game {game_id} over")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default=os.environ.get("SKIT_URL", "http://127.0.0.1:50051"))
    parser.add_argument("--token", default=os.environ.get("SKIT_TOKEN"))
    parser.add_argument("--worlds", type=int, default=8, help="worlds per decision (1 to 64)")
    parser.add_argument("--until-done", action="store_true",
                        help="exit once the account sits in no unfinished game")
    args = parser.parse_args()
    if not args.token:
        sys.exit("a bot key is needed: --token or SKIT_TOKEN")
    client = Client(args.url, args.token)
    account = client.sign_in()
    print(f"signed in as {account['name']}", file=sys.stderr)
    play(client, args.worlds, until_done=args.until_done,
         log=lambda text: print(text, file=sys.stderr))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""A Skitgubbe bot over the game service's public REST/JSON API.

Standard library only (Python 3.11+). It long-polls for the games where its
account is to act, reads the seat's view, picks one of the listed legal
actions with a simple heuristic, and submits it with a move id, so a resend
after a lost answer never plays twice.

    python3 skit_bot.py --url http://127.0.0.1:50051 --token skt_... [--until-done]

The token may also come from SKIT_TOKEN and the URL from SKIT_URL. See
docs/bot-guide.md for the API it uses.

The heuristic ("shed low, keep trumps"): take free gains first (claim a
decided trick, rob the turned-up card, bank trumps); otherwise play the
legal play whose highest card is lowest (trumps count above every plain
card), preferring to shed more cards at once; with no play, turn up the
stock (chance), then pass, then sluff the lowest cards; pick up only when
nothing else is legal.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

RANKS = "23456789TJQKA"


class ApiError(Exception):
    """An answer other than 200: the HTTP status and the JSON error body."""

    def __init__(self, status: int, body: dict):
        super().__init__(f"{status} {body.get('code')}: {body.get('message')}")
        self.status = status
        self.code = body.get("code", "")
        self.message = body.get("message", "")


class Api:
    def __init__(self, url: str, token: str, wait_ms: int):
        self.url = url.rstrip("/")
        self.token = token
        self.wait_ms = wait_ms

    def call(self, method: str, path: str, body: dict | None = None) -> dict:
        """One request; retries only when the service is unreachable or 503."""
        data = None if body is None else json.dumps(body).encode()
        delay = 0.1
        for attempt in range(10):
            request = urllib.request.Request(
                self.url + path,
                data=data,
                method=method,
                headers={
                    "Authorization": f"Bearer {self.token}",
                    "Content-Type": "application/json",
                },
            )
            try:
                timeout = self.wait_ms / 1000 + 15
                with urllib.request.urlopen(request, timeout=timeout) as reply:
                    text = reply.read().decode()
                    return json.loads(text) if text else {}
            except urllib.error.HTTPError as e:
                text = e.read().decode(errors="replace")
                try:
                    error = json.loads(text)
                except ValueError:
                    error = {"code": "", "message": text}
                if e.code in (502, 503, 504) and attempt < 9:
                    pass  # passing trouble: retry the same request below
                else:
                    raise ApiError(e.code, error) from None
            except (urllib.error.URLError, ConnectionError, TimeoutError) as e:
                if attempt == 9:
                    raise
                log(f"cannot reach the service ({e}); retrying in {delay:.1f}s")
            time.sleep(delay)
            delay = min(delay * 2, 5.0)
        raise RuntimeError("unreachable")

    def my_turns(self) -> list[dict]:
        query = urllib.parse.urlencode({"myTurnOnly": "true", "waitMs": self.wait_ms})
        return self.call("GET", f"/v1/games?{query}")["games"]

    def unfinished_games(self) -> list[dict]:
        return self.call("GET", "/v1/games?waitMs=0")["games"]

    def view(self, game: str, seat: int) -> dict:
        return self.call("GET", f"/v1/games/{game}/view?seat={seat}")

    def submit(self, game: str, seat: int, version: str, action: dict) -> dict:
        body = {
            "seat": seat,
            # One id per decision point: a resend returns the first answer.
            "moveId": f"py:{game}:{seat}:{version}",
            "expectedVersion": version,
            "action": action,
        }
        return self.call("POST", f"/v1/games/{game}/moves", body)


def log(message: str) -> None:
    print(f"skit_bot: {message}", file=sys.stderr, flush=True)


def strength(card: str, trump: str | None) -> int:
    """A card's rank, trumps above every plain card."""
    rank = RANKS.index(card[0])
    return rank + (len(RANKS) if trump and card[1] == trump else 0)


def preference(action: dict, trump: str | None) -> tuple:
    """Lower is better (see the module's doc)."""
    if any(k in action for k in ("claim", "rob", "bank")):
        return (0, 0, 0)
    if "play" in action:
        cards = action["play"]["cards"]
        return (1, max(strength(c, trump) for c in cards), -len(cards))
    if "chance" in action:
        return (2, 0, 0)
    if "pass" in action:
        return (3, 0, 0)
    if "sluff" in action:
        cards = action["sluff"]["cards"]
        return (4, max(strength(c, trump) for c in cards), 0)
    if "pickup" in action:
        return (9, 0, 0)
    return (5, 0, 0)


def choose(view: dict) -> dict | None:
    legal = view["legalActions"]
    if not legal:
        return None
    return min(legal, key=lambda a: preference(a, view.get("trump")))


def play_turn(api: Api, game: str, seat: int) -> int:
    """Plays `seat` while it may act; returns the moves made."""
    moves = 0
    refusals = 0
    while refusals < 3:
        view = api.view(game, seat)
        if view["phase"] == "PHASE_OVER":
            break
        action = choose(view)
        if action is None:
            break
        # uint64 is a JSON string. Every field is in every answer, even at
        # its default ("0", [], false); only unset optional ones (trump) are not.
        version = view["version"]
        try:
            api.submit(game, seat, version, action)
            moves += 1
            refusals = 0
        except ApiError as e:
            if e.status != 409:
                raise
            # ABORTED: someone moved first (stale expectedVersion).
            # FAILED_PRECONDITION: the rules refused (names the rule).
            # ALREADY_EXISTS: this move id went with another move.
            # In every case: read the view again and decide afresh.
            if e.code != "ABORTED":
                refusals += 1
                log(f"{game} seat {seat}: {e.code} {e.message}; reading again")
    return moves


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default=os.environ.get("SKIT_URL", "http://127.0.0.1:50051"))
    parser.add_argument("--token", default=os.environ.get("SKIT_TOKEN"))
    parser.add_argument("--wait-ms", type=int, default=20000, help="long-poll wait")
    parser.add_argument(
        "--until-done",
        action="store_true",
        help="exit once the account has no unfinished game",
    )
    args = parser.parse_args()
    if not args.token:
        parser.error("a token is needed: --token or SKIT_TOKEN")
    api = Api(args.url, args.token, args.wait_ms)
    total = 0
    while True:
        try:
            turns = api.my_turns()
            if not turns and args.until_done and not api.unfinished_games():
                log(f"no unfinished games; {total} moves made")
                return 0
            for game in turns:
                for seat in game["mySeatsToAct"]:
                    total += play_turn(api, game["gameId"], seat)
        except ApiError as e:
            if e.status in (401, 403):
                log(f"the service refuses this token: {e}")
                return 2
            log(f"{e}; listing again")
            time.sleep(0.5)
        except KeyboardInterrupt:
            return 0


if __name__ == "__main__":
    sys.exit(main())

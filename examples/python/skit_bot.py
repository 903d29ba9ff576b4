#!/usr/bin/env python3
"""A Skitgubbe bot over the public REST/JSON API of the game service and the matchmaker.

Standard library only (Python 3.11+). It can make its own bot account (its
key) with the operator's token, queue at the matchmaker, and play: it
long-polls for the games where its account is to act, reads the seat's
view, picks one of the listed legal actions with a simple heuristic, and
submits it with a move id, so a resend after a lost answer never plays
twice.

    # a local service (cargo run --bin skitgubbe): make a key, queue, play one game
    python3 skit_bot.py --new-bot my-bot --key-file my-bot.key --queue skitgubbe
    # later runs reuse the key in my-bot.key
    python3 skit_bot.py --key-file my-bot.key --queue skitgubbe
    # a key you already hold: play every game the account is in, until none is left
    python3 skit_bot.py --token skt_... --until-done

The game service's URL may also come from SKIT_URL, the matchmaker's from
SKIT_MATCHMAKER_URL, the key from SKIT_TOKEN and the operator's token from
SKIT_OPERATOR_TOKEN (else the local service's file skitgubbe-operator.token
in SKIT_DATA_DIR or here). See docs/bot-guide.md for the API it uses.

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
# Where a local service (cargo run --bin skitgubbe) keeps the operator's token.
OPERATOR_TOKEN_FILE = "skitgubbe-operator.token"


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

    def call(
        self, method: str, path: str, body: dict | None = None, base: str | None = None
    ) -> dict:
        """One request to the game service (or to `base`); retries only
        when the service is unreachable or 503."""
        data = None if body is None else json.dumps(body).encode()
        delay = 0.1
        for attempt in range(10):
            request = urllib.request.Request(
                (base or self.url).rstrip("/") + path,
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
        """Every game where we may act: the first page long-polled, the rest at once."""
        return self.pages({"myTurnOnly": "true", "waitMs": self.wait_ms})

    def unfinished_games(self) -> list[dict]:
        return self.pages({"waitMs": 0})

    def pages(self, query: dict) -> list[dict]:
        games, token = [], ""
        while True:
            page_query = query | {"pageSize": 1000}
            if token:
                page_query |= {"pageToken": token, "waitMs": 0}
            page = self.call("GET", f"/v1/games?{urllib.parse.urlencode(page_query)}")
            games += page.get("games", [])
            token = page.get("nextPageToken", "")
            if not token:
                return games

    def view(self, game: str, seat: int, after: str | None = None) -> dict:
        """The seat's view; with `after`, waits until the version is past it."""
        query = {"seat": seat}
        if after is not None:
            query |= {"waitForVersionAfter": after, "timeoutMs": self.wait_ms}
        return self.call("GET", f"/v1/games/{game}/view?{urllib.parse.urlencode(query)}")

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


def operator_token(path: str | None) -> str:
    """The operator's token: SKIT_OPERATOR_TOKEN, else the file at `path`,
    else the one a local service keeps (skitgubbe-operator.token)."""
    if not path and os.environ.get("SKIT_OPERATOR_TOKEN"):
        return os.environ["SKIT_OPERATOR_TOKEN"]
    path = path or os.path.join(os.environ.get("SKIT_DATA_DIR", "."), OPERATOR_TOKEN_FILE)
    try:
        with open(path, encoding="utf-8") as f:
            return f.read().strip()
    except OSError as e:
        raise SystemExit(f"skit_bot: making a key needs the operator's token: {e}") from None


def new_bot_key(url: str, name: str, operator: str) -> str:
    """Creates a bot account named `name` as the operator; returns its key."""
    created = Api(url, operator, 0).call(
        "POST", "/v1/accounts", {"name": name, "kind": "ACCOUNT_KIND_BOT"}
    )
    log(f"created the bot account {name} (id {created['accountId']})")
    return created["token"]


def save_key(path: str, token: str) -> None:
    """Writes the key readable by its owner only: it plays as the bot."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(token + "\n")


def bot_key(args: argparse.Namespace) -> str | None:
    """The key: --token or SKIT_TOKEN, else the key file, else a new bot
    account's key (--new-bot), saved to the key file."""
    if args.token:
        return args.token
    if args.key_file and os.path.exists(args.key_file):
        with open(args.key_file, encoding="utf-8") as f:
            return f.read().strip()
    if not args.new_bot:
        return None
    token = new_bot_key(args.url, args.new_bot, operator_token(args.operator_token_file))
    if args.key_file:
        save_key(args.key_file, token)
        log(f"its key is in {args.key_file}")
    return token


def queue(api: Api, matchmaker: str, preset: str, counts: list[int], bots: bool) -> dict:
    """Queues at the matchmaker and waits until seated; returns the ticket."""
    body = {"rules": {"preset": preset}, "playerCounts": counts, "allowBots": bots}
    ticket = api.call("POST", "/v1/tickets", body, base=matchmaker)
    log(f"queued for {preset}: ticket {ticket['ticketId']}")
    try:
        while ticket["state"] == "TICKET_STATE_QUEUED":
            path = f"/v1/tickets/{ticket['ticketId']}?waitMs={api.wait_ms}"
            ticket = api.call("GET", path, base=matchmaker)
    except KeyboardInterrupt:
        api.call("POST", f"/v1/tickets/{ticket['ticketId']}/cancel", {}, base=matchmaker)
        raise
    if ticket["state"] != "TICKET_STATE_MATCHED":
        raise SystemExit(f"skit_bot: the ticket ended {ticket['state']}")
    log(f"seated: game {ticket['gameId']}, seat {ticket['seat']}")
    return ticket


def play_game(api: Api, game: str, seat: int) -> dict:
    """Plays `seat` until the game is over; returns the last view."""
    moves = 0
    view = api.view(game, seat)
    while view["phase"] != "PHASE_OVER":
        seen = view["version"]
        if view["legalActions"]:
            moves += play_turn(api, game, seat)
            view = api.view(game, seat)
        if view["version"] == seen:
            # Nothing (more) to do: wait until the game moves on.
            view = api.view(game, seat, after=seen)
    result = view["result"]
    place = result["places"][seat]
    outcome = "the skitgubbe" if result.get("loser") == seat else f"place {place}"
    log(f"game over after {moves} moves of ours: {outcome} of {view['players']}")
    return view


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default=os.environ.get("SKIT_URL", "http://127.0.0.1:50051"))
    parser.add_argument("--token", default=os.environ.get("SKIT_TOKEN"), help="the bot's key")
    parser.add_argument("--key-file", help="where the bot's key is kept (made with --new-bot)")
    parser.add_argument("--new-bot", metavar="NAME", help="make a bot account and use its key")
    parser.add_argument(
        "--operator-token-file",
        help="the operator's token, for --new-bot [SKIT_OPERATOR_TOKEN, "
        "else skitgubbe-operator.token in SKIT_DATA_DIR or here]",
    )
    parser.add_argument("--queue", metavar="PRESET", help="queue for one game, play it, exit")
    parser.add_argument(
        "--matchmaker",
        default=os.environ.get("SKIT_MATCHMAKER_URL", "http://127.0.0.1:50052"),
    )
    parser.add_argument(
        "--players", type=int, action="append", default=[], help="acceptable table size (repeat)"
    )
    parser.add_argument("--no-bots", action="store_true", help="no house bots at the table")
    parser.add_argument("--wait-ms", type=int, default=20000, help="long-poll wait")
    parser.add_argument(
        "--until-done",
        action="store_true",
        help="exit once the account has no unfinished game",
    )
    args = parser.parse_args()
    token = bot_key(args)
    if not token:
        parser.error("a key is needed: --token, SKIT_TOKEN, --key-file or --new-bot")
    api = Api(args.url, token, args.wait_ms)
    if args.queue:
        try:
            ticket = queue(api, args.matchmaker, args.queue, args.players, not args.no_bots)
            play_game(api, ticket["gameId"], ticket["seat"])
            return 0
        except ApiError as e:
            log(f"{e}")
            return 2 if e.status in (401, 403) else 1
        except KeyboardInterrupt:
            return 0
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

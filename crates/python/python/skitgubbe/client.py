"""A client for the Skitgubbe game service over REST/JSON, standard library
only: sign in with an API key, wait for this bot's turns, read a seat's view,
submit moves with idempotency keys, and sample worlds for search.

    from skitgubbe.client import Client

    client = Client("http://127.0.0.1:50051", token)
    client.sign_in()
    for game_id, seat in client.turns(until_done=True):
        view = client.view(game_id, seat)
        client.submit(game_id, seat, view, view["legalActions"][0])

Answers are the service's JSON (docs/bot-guide.md): lowerCamelCase names,
64-bit integers as strings. A refusal raises ``ServiceError`` with the
service's ``status``, ``code``, ``reason`` and ``metadata``; calls the
service asks to retry (429, 503) and lost connections are retried with
backoff, the same request each time, so a move is never played twice.
"""

import json
import time
import urllib.error
import urllib.parse
import urllib.request

__all__ = ["Client", "ServiceError", "move_id"]

RETRIED = {429, 502, 503, 504}


class ServiceError(Exception):
    """A call the service refused: HTTP ``status``, and the error body's
    ``code`` (``ABORTED``), ``reason`` (``stale_version``) and
    ``metadata``."""

    def __init__(self, status, body):
        self.status = status
        self.body = body if isinstance(body, dict) else {"message": str(body)}
        self.code = self.body.get("code", "")
        self.reason = self.body.get("reason", "")
        self.metadata = self.body.get("metadata", {})
        super().__init__(f"HTTP {status} {self.reason}: {self.body.get('message', '')}")


def move_id(game_id, seat, version):
    """The idempotency key of the decision at ``version``: the same decision
    always gets the same id, so resending it after a lost answer or a
    restart never plays a second move."""
    return f"bot:{game_id}:{seat}:{version}"


class Client:
    """The game service at ``url`` for the bot whose API key is ``token``."""

    def __init__(self, url, token, retries=6, timeout=75.0):
        self.url = url.rstrip("/")
        self.token = token
        self.retries = retries
        self.timeout = timeout
        self.account = None

    def call(self, method, path, body=None, query=None):
        """One REST call; the answer's JSON."""
        if query:
            pairs = {k: _text(v) for k, v in query.items() if v is not None}
            path = f"{path}?{urllib.parse.urlencode(pairs)}"
        data = None if body is None else json.dumps(body).encode()
        headers = {"authorization": f"Bearer {self.token}"}
        if data is not None:
            headers["content-type"] = "application/json"
        delay = 0.2
        for attempt in range(self.retries + 1):
            request = urllib.request.Request(self.url + path, data, headers, method=method)
            try:
                with urllib.request.urlopen(request, timeout=self.timeout) as answer:
                    return json.loads(answer.read() or b"{}")
            except urllib.error.HTTPError as e:
                text = e.read()
                try:
                    error = ServiceError(e.code, json.loads(text))
                except ValueError:
                    error = ServiceError(e.code, text.decode(errors="replace"))
                if e.code not in RETRIED or attempt == self.retries:
                    raise error from None
                hint = e.headers.get("retry-after")
                wait = float(hint) if hint and hint.isdigit() else delay
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                if attempt == self.retries:
                    raise
                wait = delay
            time.sleep(wait)
            delay = min(delay * 2, 5.0)
        raise AssertionError("unreachable")

    def sign_in(self):
        """Checks the key (``WhoAmI``) and returns its account:
        ``{"accountId", "name", "kind", ...}``."""
        self.account = self.call("GET", "/v1/accounts/me")
        return self.account

    def games(self, include_over=False):
        """Every game of the account (unfinished ones unless
        ``include_over``), all pages."""
        out, token = [], None
        while True:
            page = self.call("GET", "/v1/games",
                             query={"includeOver": include_over, "pageToken": token})
            out.extend(page["games"])
            token = page.get("nextPageToken")
            if not token:
                return out

    def turns(self, wait_ms=30000, until_done=False):
        """Yields ``(game_id, seat)`` for every seat of the account that is
        to act, long-polling ``ListGames`` (``myTurnOnly``) between turns.
        Decide and submit before asking for the next one. With
        ``until_done``, stops once the account sits in no unfinished game."""
        while True:
            token, found = None, False
            while True:
                query = {"myTurnOnly": True, "waitMs": 0 if token else wait_ms,
                         "pageToken": token}
                page = self.call("GET", "/v1/games", query=query)
                for game in page["games"]:
                    for seat in game["mySeatsToAct"]:
                        found = True
                        yield game["gameId"], seat
                token = page.get("nextPageToken")
                if not token:
                    break
            if until_done and not found and not self.games():
                return

    def view(self, game_id, seat, min_version=None):
        """``seat``'s view of the game with its whole history (``GetView``)."""
        query = {"seat": seat, "minVersion": min_version}
        return self.call("GET", f"/v1/games/{game_id}/view", query=query)

    def submit(self, game_id, seat, view, action):
        """Plays ``action`` (one of ``view["legalActions"]``) for ``seat``
        against the version ``view`` shows, under the decision's
        idempotency key. The answer holds the new ``version`` and ``view``."""
        body = {
            "seat": seat,
            "moveId": move_id(game_id, seat, view["version"]),
            "expectedVersion": view["version"],
            "action": action,
        }
        return self.call("POST", f"/v1/games/{game_id}/moves", body=body)

    def sample_worlds(self, game_id, seat, n, seed=0, min_version=None):
        """``SampleWorlds``: ``n`` (1 to 64) worlds that agree with
        ``seat``'s view; the answer's ``version`` says at which version."""
        query = {"seat": seat, "n": n, "seed": seed, "minVersion": min_version}
        return self.call("GET", f"/v1/games/{game_id}/worlds", query=query)


def _text(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)

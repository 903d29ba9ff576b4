"""The PIMC example bot (examples/python/pimc_bot.py) through a running
service: the game service (``skit-game``) and two greedy house bots
(``skit-botworker --provision 2 --strategy greedy``) on SQLite in a fresh
folder. The operator seats the PIMC bot with both greedy bots in every
game, each seat in turn; the bot plays with the package's client and
engine until its games are over, and it must lose less often than a
greedy seat does.

The services are the workspace's debug binaries (``./scripts/test`` builds
them before the Python tests run), or those in ``SKIT_BIN_DIR``.
"""

import json
import os
import pathlib
import socket
import subprocess
import sys
import time
import urllib.request

import pytest
import skitgubbe

ROOT = pathlib.Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "examples" / "python"))

import pimc_bot  # noqa: E402
from skitgubbe.client import Client  # noqa: E402

OPERATOR = "operator-token-of-the-pimc-test"
# Games, in batches under the open-games quota of a player's account.
GAMES, BATCH = 24, 12


def binaries():
    """The folder of ``skit-game`` and ``skit-botworker``: ``SKIT_BIN_DIR``,
    else the workspace's debug build, which the test suite's ``cargo
    nextest run --workspace`` makes before the Python tests run."""
    folder = pathlib.Path(os.environ.get("SKIT_BIN_DIR", ROOT / "target" / "debug"))
    for name in ("skit-game", "skit-botworker"):
        assert (folder / name).exists(), (
            f"no {folder / name}: build it first "
            "(cargo build --bin skit-game --bin skit-botworker), or set SKIT_BIN_DIR")
    return folder


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def until(what, check, seconds=60):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            found = check()
        except OSError:
            found = None
        if found:
            return found
        time.sleep(0.2)
    raise AssertionError(f"{what} within {seconds} s")


@pytest.fixture(scope="module")
def service(tmp_path_factory):
    """(url, greedy account ids) of a game service with two greedy house
    bots playing."""
    bin_dir = binaries()
    tmp_path = tmp_path_factory.mktemp("service")
    url = f"http://127.0.0.1:{free_port()}"
    env = dict(os.environ, SKIT_OPERATOR_TOKEN=OPERATOR, RUST_LOG="warn")
    # The bot asks for worlds faster than the default reads limit lets
    # SampleWorlds through (12 a second: docs/limits.md), and the test
    # measures how it plays, so the limit is raised.
    game_env = dict(env, SKIT_ADDR=url.removeprefix("http://"), SKIT_LIMIT_READS="4000:8000",
                    DATABASE_URL=f"sqlite://{tmp_path / 'game.db'}?mode=rwc")
    bots_file = tmp_path / "bots.json"
    bots_env = dict(env, SKIT_BOT_SERVER=url, SKIT_BOT_ACCOUNTS_FILE=str(bots_file),
                    SKIT_BOT_WAIT_MS="2000")
    logs = open(tmp_path / "services.log", "wb")
    game = subprocess.Popen([bin_dir / "skit-game"], env=game_env, stdout=logs, stderr=logs)
    bots = None
    try:
        until("the game service answers",
              lambda: urllib.request.urlopen(f"{url}/readyz", timeout=2).status == 200)
        bots = subprocess.Popen([bin_dir / "skit-botworker", "--provision", "2",
                                 "--strategy", "greedy"], env=bots_env, stdout=logs, stderr=logs)
        accounts = until("two greedy house bots",
                         lambda: bots_file.exists()
                         and json.loads(bots_file.read_text())["accounts"])
        yield url, [a["account_id"] for a in accounts]
    finally:
        for process in (bots, game):
            if process:
                process.terminate()
                process.wait(timeout=20)
        logs.close()


def bot_account(url, name):
    """A new bot account's id and a signed-in client with its key."""
    made = Client(url, OPERATOR).call("POST", "/v1/accounts",
                                      body={"name": name, "kind": "ACCOUNT_KIND_BOT"})
    bot = Client(url, made["token"])
    assert bot.sign_in()["accountId"] == made["accountId"]
    return made["accountId"], bot


def test_a_sampled_world_is_a_state_the_seat_cannot_tell_apart(service):
    # Arrange: a game of the bot and both greedy bots, at one of the bot's turns
    url, greedy = service
    account, bot = bot_account(url, "sampler")
    created = Client(url, OPERATOR).call("POST", "/v1/games", body={
        "rules": {"preset": "skitgubbe"}, "players": 3,
        "seats": [{"accountId": a} for a in [*greedy, account]]})
    game_id, seat = next(bot.turns(wait_ms=2000))
    assert game_id == created["gameId"] and seat == 2
    view = bot.view(game_id, seat)

    # Act
    worlds = bot.sample_worlds(game_id, seat, 4, seed=1, min_version=view["version"])
    states = [skitgubbe.from_world(json.dumps(view), json.dumps(w), seed=i)
              for i, w in enumerate(worlds["worlds"])]
    tampered = json.loads(json.dumps(worlds["worlds"][0]))
    own, other = tampered["hands"][seat]["cards"], tampered["hands"][0]["cards"]
    own[0], other[0] = other[0], own[0]

    # Assert: the seat's hand and legal actions are the view's in every world
    assert worlds["version"] == view["version"] and len(states) == 4
    legal = sorted(pimc_bot.number(a) for a in view["legalActions"])
    for state in states:
        assert state.legal_actions(seat) == legal
        seen = json.loads(state.information_state_string(seat))
        assert sorted(seen["hand"]) == sorted(view["hand"])
    with pytest.raises(ValueError, match=f"seat {seat}"):
        skitgubbe.from_world(json.dumps(view), json.dumps(tampered))
    bot.call("POST", f"/v1/games/{game_id}/resign", body={"seat": seat, "moveId": "done"})


def test_pimc_loses_less_often_than_greedy(service):
    # Arrange: the PIMC bot's account and key, and its games with both greedy bots
    url, greedy = service
    operator = Client(url, OPERATOR)
    account, bot = bot_account(url, "pimc")
    made = {"accountId": account}
    tables = []

    # Act: the bot plays its games, a batch at a time
    for batch in range(0, GAMES, BATCH):
        for g in range(batch, batch + BATCH):
            seats = [made["accountId"], *greedy]
            seats = seats[g % 3:] + seats[:g % 3]
            created = operator.call("POST", "/v1/games", body={
                "rules": {"preset": "skitgubbe"}, "players": 3,
                "seats": [{"accountId": a} for a in seats]})
            tables.append((created["gameId"], seats.index(made["accountId"])))
        pimc_bot.play(bot, worlds=8, until_done=True, wait_ms=2000, log=lambda _: None)

    # Assert: every game is over, and the bot lost a smaller share of its
    # games than the greedy seats lost of theirs
    lost = {"pimc": 0, "greedy": 0}
    for game_id, seat in tables:
        view = operator.call("GET", f"/v1/games/{game_id}/view", query={"spectator": True})
        assert view["phase"] == "PHASE_OVER", view
        loser = view["result"].get("loser")
        if loser is not None:
            lost["pimc" if loser == seat else "greedy"] += 1
    pimc_rate, greedy_rate = lost["pimc"] / GAMES, lost["greedy"] / (2 * GAMES)
    print(f"lost: PIMC {pimc_rate:.2f} of its games, greedy {greedy_rate:.2f}")
    assert pimc_rate < greedy_rate, lost

"""Every door gives the same record of the same job: a game played by hand (the package's
`Game`, `wumpus play`, the live page's `act`), a traced game (the package's `trace`, `wumpus
trace --json`, the page's Watch) and a batch (the package's `solve`, `wumpus solve --json`,
in test_cli_parity.py). Each door only translates the library's one recipe of the job."""

import json
import re
import subprocess
import urllib.request

import numpy as np
import pytest

import wumpus_logic

from conftest import RULES


@pytest.fixture(scope="module")
def server(wumpus_bin):
    """`wumpus serve` on a free port, stopped when the module's tests end, pass or fail."""
    proc = subprocess.Popen([wumpus_bin, "serve", "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        line = proc.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert match, line
        yield f"http://127.0.0.1:{match.group(1)}"
    finally:
        proc.kill()
        proc.wait(timeout=10)


def call(base, path, body=None, key=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method="GET" if body is None else "POST")
    if body is not None:
        request.add_header("Content-Type", "application/json")
    if key:
        request.add_header("X-Wumpus-Key", key)
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.loads(answer.read())


def played_by_hand(rules, seed):
    """A game of `rules` from `seed`, played by masked random actions: its actions in the
    player's words and the package's record of it."""
    rng = np.random.default_rng(seed)
    game = wumpus_logic.Game(rules, seed)
    while not game.over and game.steps < 60:
        mask = np.asarray(game.action_mask())
        choices = np.flatnonzero(mask) if mask.any() else np.arange(len(mask))
        game.step(int(rng.choice(choices)))
    return game.actions(), json.loads(game.record())


@pytest.mark.parametrize("rules", RULES)
def test_a_game_played_by_hand_ends_alike_at_every_door(server, run_cli, rules):
    for seed in (3, 8):
        actions, record = played_by_hand(rules, seed)
        view = call(server, "/api/games", {"rules": rules, "seed": seed})
        key, gid = view["key"], view["id"]
        answer = None
        for action in actions:
            answer = call(server, f"/api/games/{gid}/act", {"action": action}, key)
        end = answer["end"] if answer else None
        out = run_cli("play", "--rules", rules, "--seed", str(seed), stdin="\n".join(actions) + "\nquit\n")
        if record["ending"] == "unfinished":
            assert end is None
            assert "You leave the game unfinished" in out
            continue
        assert end["outcome"] == record["ending"], (rules, seed)
        assert (end["score"], end["moves"], end["shots"]) == (record["score"], record["moves"], record["shots"])
        if record["score"] is not None:
            assert re.findall(r"(?:Score|score)[: ]+(-?\d+)", out)[-1] == str(record["score"]), out[-300:]


@pytest.mark.parametrize("rules", RULES)
def test_a_traced_game_is_the_same_at_every_door(server, run_cli, rules):
    seed = 7
    cli = [json.loads(line) for line in run_cli("trace", "--rules", rules, "--seed", str(seed), "--json").splitlines()]
    lib = wumpus_logic.trace(rules, seed)
    assert lib == cli
    view = call(server, "/api/games", {"rules": rules, "seed": seed})
    watch = call(server, f"/api/games/{view['id']}/watch", key=view["key"])
    assert watch["compacted"] == 0
    assert watch["start"] == cli[0]
    assert watch["end"] == cli[-1]
    # The page's Watch adds the moment after the last action; every step before it is the trace's.
    assert watch["steps"][:-1] == cli[1:-1]
    assert watch["steps"][-1]["final"] is True

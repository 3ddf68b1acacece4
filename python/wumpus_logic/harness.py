"""Your own agent on the project's worlds: a Python agent, or a program in any language
speaking one JSON line a turn, plays a batch (random seeds, a folder of world files, or the
course tournament's deal), summed like ``wumpus solve`` and shown side by side with the
project's agents on the same games.

A Python agent is a callable ``agent(observation, info) -> action number``, or an object
with ``act(observation, info)`` (and, optionally, ``reset(info)`` called at each game's
start). ``observation`` and ``info`` are what :class:`wumpus_logic.envs.WumpusEnv` gives.

The line protocol (docs/python.md): the host writes one JSON object a line to the
program's standard input; the program answers each ``turn`` line with one line, the action's
number or name (``0`` or ``forward``)::

    {"type": "start", "rules": "aima", "actions": [...], "observation": [...],
     "grid": [4, 4], "places": 16, "seed": 7}
    {"type": "turn", "step": 1, "observation": [0, 1, 0, 0, 0], "at": "0,0",
     "facing": "east", "moves": 0, "score": 0, "reward": 0, "messages": [...],
     "action_mask": [0, 1, 1, 1, 1, 1]}
    {"type": "end", "outcome": "won", "score": 988, "reward": 1000}

Command line: ``wumpus-logic --agent-cmd "python3 my_bot.py" --rules aima --worlds 1000``
(or ``--agent module:callable``, ``--files DIR``, ``--deal course``); ``--baselines
risk,logic`` chooses the project's agents shown beside it.
"""

import argparse
import importlib
import json
import os
import shlex
import subprocess
import sys
import time
import traceback
from pathlib import Path

import numpy as np

from . import _core, catalogue, solve


class AgentFailed(Exception):
    """The agent raised an exception (or answered what is no action) during a game: which
    game, which step (the one being decided; 0 at the start hook, ``None`` at the end hook),
    and the exception (its ``__cause__``)."""

    def __init__(self, seed, step, file=None):
        self.seed, self.step, self.file = seed, step, file
        game = f"the game on {file}" if file is not None else f"the game of seed {seed}"
        when = {0: "at its start", None: "at its end"}.get(step, f"at step {step}")
        super().__init__(f"the agent failed in {game}, {when}")


def _game_options(options):
    """The options that set up the games (the catalogue's, but the agent's own)."""
    agent_only = {"agent", "depth", "rollouts", "kb"}
    names = {o["name"] for o in catalogue()["options"]} - agent_only
    unknown = set(options) - {o["name"] for o in catalogue()["options"]}
    if unknown:
        raise ValueError(f"there is no option {sorted(unknown)[0]!r}: the options are {sorted(names | agent_only)}")
    return {k: v for k, v in options.items() if k in names}


def _info(game, mask=True, knowledge=False):
    info = {
        "score": game.score_so_far,
        "outcome": game.outcome,
        "at": game.at,
        "facing": game.facing,
        "moves": game.moves,
        "seed": game.seed,
        "messages": game.messages,
    }
    if mask:
        info["action_mask"] = np.asarray(game.action_mask(useful=mask == "useful"), dtype=np.int8)
    if knowledge and not game.over:
        info["knowledge"] = game.knowledge()
    return info


def world_files(files):
    """The world files ``files`` names, in the order ``wumpus solve --files`` plays them: a
    folder's regular files (not those starting with a dot) sorted by name, or the files
    listed (the library's one listing)."""
    if isinstance(files, (str, os.PathLike)):
        files = [files]
    return _core.game_files([str(f) for f in files])


def play_batch(agent, rules="aima", worlds=1000, seed=0, files=None, name=None, mask=True,
               max_steps=1000, observation="percepts", knowledge=False, shard=None, **options):
    """Plays ``agent`` on ``worlds`` games dealt from seeds ``seed`` to ``seed + worlds - 1``
    (as ``wumpus solve --seed SEED`` deals them), or on each world file of ``files`` (a folder
    or a list); returns the summary ``wumpus solve --json`` would give, as a dict.

    The agent is shown the ``observation`` a :class:`wumpus_logic.envs.WumpusEnv` of that mode
    shows (``"percepts"``, ``"memory"``, ``"knowledge"``) and the env's ``info``; with
    ``knowledge=True`` ``info["knowledge"]`` also holds what the player knows as arrays
    (``Game.knowledge``: what the logic proves of each place, the exact odds). A game still
    going after ``max_steps`` actions is cut off: it counts at the score the rules had charged
    (``unfinished`` in the summary's endings), and the agent's ``end`` hook sees
    ``outcome="unfinished"``. ``mask`` is ``True`` (the harmless actions), ``"useful"`` (less
    those the player can tell do nothing) or ``False``. ``shard="K/N"`` plays only the K-th of N contiguous parts of the
    games, as ``wumpus solve --shard K/N`` does; ``_core.merge`` adds the parts' summaries up
    (``wumpus_logic.scale`` does it on Ray)."""
    options = {k: v for k, v in options.items() if v is not None}
    act = agent.act if hasattr(agent, "act") else agent
    start = getattr(agent, "reset", None)
    name = name or getattr(agent, "name", None) or getattr(agent, "__name__", None) or type(agent).__name__
    paths = world_files(files) if files is not None else None
    count = len(paths) if paths is not None else worlds
    games = range(*_core.shard_range(count, shard)) if shard is not None else range(count)
    tally = _core.Tally(str(name), rules, seed, worlds=count, shard=shard, **_game_options(options))
    game = _core.Game(rules, seed, observation=observation, **_game_options(options))
    began = time.perf_counter()
    for i in games:
        game.reset(seed + i, paths[i] if paths is not None else None)
        deciding = 0.0
        info = _info(game, mask, knowledge)
        file = paths[i] if paths is not None else None
        failed = lambda step: AgentFailed(seed + i, step, file)  # noqa: E731
        if start is not None:
            try:
                start(dict(info, rules=rules, grid=game.grid_size, places=game.places))
            except Exception as e:
                raise failed(0) from e
        while not game.over and game.steps < max_steps:
            obs = game.observation()
            obs = obs.reshape(-1) if observation != "percepts" else np.asarray(obs, dtype=np.int8)
            t = time.perf_counter()
            try:
                action = act(obs, info)
                number = int(action)
            except Exception as e:
                raise failed(game.steps + 1) from e
            deciding += time.perf_counter() - t
            try:
                reward = game.step(number)
            except (ValueError, OverflowError) as e:
                raise failed(game.steps + 1) from e
            info = _info(game, mask if not game.over else False, knowledge)
            info["reward"] = reward
        if not game.over:
            info["outcome"] = "unfinished"
        if hasattr(agent, "end"):
            try:
                agent.end(info)
            except Exception as e:
                raise failed(None) from e
        tally.add(game, deciding, paths[i] if paths is not None else None)
    return json.loads(tally.summary(time.perf_counter() - began))


class LineAgent:
    """A program that plays through the line protocol, started once for a whole batch."""

    def __init__(self, command, name=None):
        self.command = command if isinstance(command, list) else shlex.split(command)
        self.name = name or Path(self.command[-1]).name
        self.proc = subprocess.Popen(
            self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.actions = None
        self.step = 0

    def _send(self, message):
        self.proc.stdin.write(json.dumps(message) + "\n")
        self.proc.stdin.flush()

    def reset(self, info):
        _, observation, _ = _core.spaces(info["rules"], info["places"])
        self.actions, _, _ = _core.spaces(info["rules"], info["places"])
        self.step = 0
        self._send({
            "type": "start",
            "rules": info["rules"],
            "actions": self.actions,
            "observation": observation,
            "grid": info["grid"],
            "places": info["places"],
            "seed": info["seed"],
        })

    def act(self, observation, info):
        self.step += 1
        message = {"type": "turn", "step": self.step, "observation": [int(v) for v in observation]}
        for key in ("at", "facing", "moves", "score", "messages"):
            message[key] = info.get(key)
        if "knowledge" in info:
            message["knowledge"] = {k: v.tolist() for k, v in info["knowledge"].items()}
        message["reward"] = info.get("reward", 0)
        if "action_mask" in info:
            message["action_mask"] = [int(v) for v in info["action_mask"]]
        self._send(message)
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"{self.name} closed its output instead of answering turn {self.step}")
        answer = line.strip()
        try:
            value = json.loads(answer)
        except ValueError:
            value = answer
        if isinstance(value, dict):
            value = value.get("action")
        if isinstance(value, int) and 0 <= value < len(self.actions):
            return value
        if isinstance(value, str) and value.lower() in self.actions:
            return self.actions.index(value.lower())
        raise ValueError(f"{self.name} answered {answer!r}: not one of the actions 0 to {len(self.actions) - 1} or {self.actions}")

    def end(self, info):
        self._send({"type": "end", "outcome": info["outcome"], "score": info["score"], "reward": info.get("reward", 0)})

    def close(self):
        if self.proc.poll() is None:
            self.proc.stdin.close()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def baselines(agents, rules="aima", worlds=1000, seed=0, files=None, **options):
    """The project's ``agents`` (names) on the same games, as summaries."""
    options = {k: v for k, v in options.items() if v is not None}
    paths = world_files(files) if files is not None else None
    return [solve(rules, worlds, seed, paths, agent=a, **options) for a in agents]


def _pct(part, whole):
    return f"{100.0 * part / max(whole, 1):.1f}%"


def table(summaries):
    """The summaries side by side, one column an agent, in the rows of ``wumpus solve``."""
    rows = [("agent", [s.get("player") or s["game"]["agent"] for s in summaries])]
    rows.append(("games", [str(s["games"]) for s in summaries]))
    rows.append(("wins", [f"{s['wins']} ({100 * s['win_rate']:.1f}% ± {100 * s['win_rate_error']:.1f}%)" for s in summaries]))
    causes = sorted({c for s in summaries for c in s["endings"] if c not in ("won", "climbed_out", "unfinished")})
    rows.append(("losses", [f"{sum(s['endings'].get(c, 0) for c in causes)} ({_pct(sum(s['endings'].get(c, 0) for c in causes), s['games'])})" for s in summaries]))
    for c in causes:
        rows.append((f"  {c}", [f"{s['endings'].get(c, 0)} ({_pct(s['endings'].get(c, 0), s['games'])})" for s in summaries]))
    for other, words in (("climbed_out", "climbed out without gold"), ("unfinished", "unfinished")):
        if any(other in s["endings"] for s in summaries):
            rows.append((words, [f"{s['endings'].get(other, 0)} ({_pct(s['endings'].get(other, 0), s['games'])})" for s in summaries]))
    if any(s["mean_score"] is not None for s in summaries):
        rows.append(("mean score", [
            "-" if s["mean_score"] is None else f"{s['mean_score']:.2f}" + ("" if s.get("mean_score_error") is None else f" ± {s['mean_score_error']:.2f}")
            for s in summaries
        ]))
    rows.append(("mean moves", [f"{s['mean_moves']:.2f}" for s in summaries]))
    rows.append(("shots", [f"{s['mean_shots']:.2f} a game" for s in summaries]))
    if all(s["ceiling"] is not None for s in summaries):
        rows.append(("all-seeing ceiling", [f"{100 * s['ceiling']:.1f}%" for s in summaries]))
    rows.append(("mean decision time", [f"{s['mean_decision_us']:.1f} us" for s in summaries]))
    rows.append(("games per second", [f"{s['games_per_second']:.0f}" for s in summaries]))
    head = max(len(r[0]) for r in rows)
    widths = [max(len(r[1][i]) for r in rows) for i in range(len(summaries))]
    lines = []
    for label, cells in rows:
        lines.append(label.ljust(head) + "  " + "  ".join(c.rjust(w) for c, w in zip(cells, widths)))
    return "\n".join(lines)


def _load_callable(spec):
    """``module:callable`` (a class is instantiated), found as ``python -m`` finds modules:
    the current folder first."""
    module, _, attr = spec.partition(":")
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.insert(0, os.getcwd())
    obj = getattr(importlib.import_module(module), attr or "agent")
    return obj() if isinstance(obj, type) else obj


def main(argv=None):
    """``wumpus-logic``: plays an agent on a batch and prints its summary beside the project's
    agents'. Bad arguments exit with status 2."""
    p = argparse.ArgumentParser(prog="wumpus-logic", description="Play your agent on the wumpus worlds, summed like `wumpus solve`.")
    who = p.add_mutually_exclusive_group(required=True)
    who.add_argument("--agent-cmd", help="a program speaking the line protocol, e.g. 'python3 bot.py'")
    who.add_argument("--agent", help="a Python agent, module:callable (a class is instantiated)")
    known = catalogue()
    p.add_argument("--rules", default="aima", choices=[r["name"] for r in known["rules"]])
    p.add_argument("--worlds", type=int, default=1000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--files", help="a folder (or one file) of world files, one game each")
    # The games' options, from the library's catalogue (the baselines' agent options too).
    for o in known["options"]:
        if o["name"] == "agent":
            continue
        flag = "--" + o["name"].replace("_", "-")
        rules = ", ".join(o["rules"])
        if o["kind"] == "flag":
            p.add_argument(flag, dest=o["name"], action="store_true", default=None, help=f"{rules}: {o['help']}")
        elif o["kind"] == "choice":
            p.add_argument(flag, dest=o["name"], choices=o["choices"], help=f"{rules}: {o['help']}")
        elif o["kind"] == "count":
            p.add_argument(flag, dest=o["name"], type=int, help=f"{rules}: {o['help']}")
        elif o["kind"] == "probability":
            p.add_argument(flag, dest=o["name"], type=float, help=f"{rules}: {o['help']}")
        else:
            p.add_argument(flag, dest=o["name"], help=f"{rules}: {o['help']}")
    p.add_argument("--baselines", default=None, help="the project's agents shown beside yours, comma-separated (default: the rule set's agents but optimal)")
    p.add_argument("--json", action="store_true", help="print the summaries as one JSON list")
    p.add_argument("--knowledge", action="store_true", help="send each turn what the logic proves of each place and the odds (the turn's \"knowledge\")")
    p.add_argument("--max-steps", type=int, default=1000, help="cut a game off after this many actions (it counts at the score charged so far)")
    a = p.parse_args(argv)
    options = {o["name"]: getattr(a, o["name"]) for o in known["options"] if o["name"] != "agent"}
    options = {k: v for k, v in options.items() if v is not None}
    agents = next(r["agents"] for r in known["rules"] if r["name"] == a.rules)
    names = [n for n in a.baselines.split(",") if n] if a.baselines else [n for n in agents if n != "optimal"]
    try:
        agent = LineAgent(a.agent_cmd) if a.agent_cmd else _load_callable(a.agent)
    except Exception as e:
        # The agent's own traceback: the fault is in its code or its name.
        traceback.print_exception(e)
        print(f"wumpus-logic: cannot load the agent {a.agent or a.agent_cmd!r}: {e}", file=sys.stderr)
        return 2
    try:
        mine = play_batch(agent, a.rules, a.worlds, a.seed, a.files, max_steps=a.max_steps,
                          knowledge=a.knowledge, **options)
        others = baselines(names, a.rules, a.worlds, a.seed, a.files, **options)
    except AgentFailed as e:
        traceback.print_exception(e.__cause__)
        print(f"wumpus-logic: {e}: {type(e.__cause__).__name__}: {e.__cause__}", file=sys.stderr)
        return 2
    except (ValueError, OSError) as e:
        print(f"wumpus-logic: {e}", file=sys.stderr)
        return 2
    finally:
        if isinstance(agent, LineAgent):
            agent.close()
    summaries = [mine] + others
    print(json.dumps(summaries) if a.json else table(summaries))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The package against the command line of the same checkout: the same seed deals the same
world as `wumpus play --seed S`; `trace` and the environment's hints give the very lines of
`wumpus trace --json` (proofs with their observations, odds, choices); `solve` the summary of
`wumpus solve --json`."""

import json

import gymnasium as gym
import numpy as np
import pytest

import wumpus_logic
from wumpus_logic import ENV_IDS

from conftest import RULES

# Words `wumpus play` reads for each action number.
TYPED = {
    "aima": ["forward", "left", "right", "grab", "shoot", "climb"],
    "grid": ["n", "e", "s", "w", "fire north", "fire east", "fire south", "fire west", "grab", "climb"],
}


def cli_trace(run_cli, rules, seed, *extra):
    lines = run_cli("trace", "--rules", rules, "--seed", str(seed), "--json", *extra).splitlines()
    return [json.loads(line) for line in lines]


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("seed", [1, 7, 42])
def test_trace_equals_the_command_line(run_cli, rules, seed):
    cli = cli_trace(run_cli, rules, seed)
    lib = wumpus_logic.trace(rules, seed)
    assert lib == cli


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("seed", [3, 11])
def test_hints_along_the_agents_game_equal_trace(run_cli, rules, seed):
    """Stepping the environment with the hinted actions, each hint is the trace's step line:
    what was proven with the minimal observations behind it, the odds, the choices weighed."""
    cli = cli_trace(run_cli, rules, seed)
    env = gym.make(ENV_IDS[rules], max_episode_steps=10_000)
    env.reset(seed=seed)
    steps = cli[1:-1]
    for line in steps:
        assert env.unwrapped.hint() == line
        env.unwrapped.follow_hint()
    assert env.unwrapped.game.over
    end = cli[-1]
    assert env.unwrapped.game.outcome == end["outcome"]
    assert env.unwrapped.game.score == end["score"]
    assert json.loads(env.unwrapped.game.hidden()) == end["hidden"]


def test_proofs_and_odds_are_there(run_cli):
    """Somewhere in a few games the agent proves a pit or the wumpus with its reasons, and
    weighs exact odds; the package says the same."""
    proofs = odds = 0
    for seed in range(30):
        for line in wumpus_logic.trace("aima", seed)[1:-1]:
            proofs += sum(1 for p in line["learned"] if p["fact"] in ("pit", "wumpus") and p["because"])
            odds += len(line["odds"]) + sum(1 for c in line["choices"] if c["pit"] is not None)
    assert proofs > 0 and odds > 0


@pytest.mark.parametrize("rules", ["aima", "grid"])
def test_play_with_the_same_seed_and_actions_scores_the_same(run_cli, rules):
    rng = np.random.default_rng(0)
    for seed in (5, 6, 8):
        env = gym.make(ENV_IDS[rules], reward_scale=1)
        obs, info = env.reset(seed=seed)
        typed, total, done = [], 0.0, False
        while not done:
            action = int(env.action_space.sample(info["action_mask"])) if rng.random() < 0.8 else int(env.action_space.sample())
            typed.append(TYPED[rules][action])
            obs, reward, terminated, truncated, info = env.step(action)
            total += reward
            done = terminated or truncated
        out = run_cli("play", "--rules", rules, "--seed", str(seed), stdin="\n".join(typed) + "\n")
        scores = [line for line in out.splitlines() if line.startswith("Score: ")]
        assert scores[-1] == f"Score: {int(total)}", out[-400:]


@pytest.mark.parametrize("rules,agent", [("aima", "risk"), ("aima", "logic"), ("grid", "optimal"), ("cave", "logic"), ("maze", "logic")])
def test_solve_equals_the_command_line(run_cli, rules, agent):
    extra = ["--size", "3x3"] if agent == "optimal" else []
    cli = json.loads(run_cli("solve", "--rules", rules, "--worlds", "200", "--seed", "9", "--agent", agent, "--json", *extra))
    lib = wumpus_logic.solve(rules, 200, 9, agent=agent, **({"size": "3x3"} if extra else {}))
    for key in ("games", "wins", "endings", "mean_score", "mean_moves", "mean_shots", "ceiling", "game"):
        assert lib[key] == cli[key], key
    # Every sum but the time the agents took.
    timeless = lambda s: {k: v for k, v in s["totals"].items() if k != "agent_nanos"}  # noqa: E731
    assert timeless(lib) == timeless(cli)

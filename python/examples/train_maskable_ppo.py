"""MaskablePPO (sb3-contrib) learning the textbook's Wumpus World, ``wumpus_logic/Aima-v0``
(4x4, pits at 0.2), from one of the three observations, within a time budget; then the learner
plays seeds 0 to 999 (as ``wumpus solve --rules aima --seed 0 --worlds 1000`` deals them) and
its summary is written beside the learning curve.

    pip install "./python[examples]"
    python python/examples/train_maskable_ppo.py --observation knowledge --minutes 30 --out runs

It trains on ``WumpusVectorEnv(16, "aima", observation=..., mask=True).to_sb3()`` (the action
mask: the actions what was perceived proves cannot kill), on seeds from 1,000,000 up, never on
the evaluation's. The curve (``runs/OBSERVATION-curve.csv``) holds, every 20,000 steps, the
mean score of the last 500 training games; ``runs/OBSERVATION-eval.json`` the evaluation's
summaries, deterministic and sampled. ``plot_learning.py`` draws the three curves.
"""

import argparse
import csv
import json
import time
from pathlib import Path

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import VecEnvWrapper, VecMonitor

from wumpus_logic import harness
from wumpus_logic.vector import WumpusVectorEnv


class Shaping(VecEnvWrapper):
    """Potential-based reward shaping (Ng, Harada and Russell, 1999): the reward learned from
    is the game's plus ``gamma * phi(next) - phi(now)``, with ``phi`` = ``per_cell`` for each
    cell visited plus, while the gold is held, ``gold`` less ``home`` for each step of the
    walk back to 0,0, and ``phi`` = 0 once a game is over. It
    leaves the best policy the game's own (the shaping terms of a whole game add up to
    ``-phi(start)``, the same for every policy) while paying at once for what only the
    climb out pays in the game. The scores reported are the game's, from ``infos``."""

    def __init__(self, venv, layout, gamma, per_cell=20.0, gold=500.0, home=0.0):
        super().__init__(venv)
        names, shape = layout
        rows, cols = shape[1:]
        cells = rows * cols
        plane = lambda name: slice(names.index(name) * cells, (names.index(name) + 1) * cells)  # noqa: E731
        self.visited, self.here = plane("visited"), plane("here")
        self.gold_at = names.index("gold") * cells
        # Each cell's walk home to 0,0 (row 0, column 0), for the way back with the gold.
        self.distance = np.array([r + c for r in range(rows) for c in range(cols)], dtype=np.float32)
        self.gamma, self.per_cell, self.gold, self.home = gamma, per_cell, gold, home
        self.phi = None

    def potential(self, obs):
        holding = obs[:, self.gold_at]
        away = obs[:, self.here] @ self.distance
        return self.per_cell * obs[:, self.visited].sum(axis=1) + holding * (self.gold - self.home * away)

    def reset(self):
        obs = self.venv.reset()
        self.phi = self.potential(obs)
        return obs

    def step_wait(self):
        obs, rewards, dones, infos = self.venv.step_wait()
        after = self.potential(obs)
        reached = np.where(dones, 0.0, after)
        shaped = rewards + self.gamma * reached - self.phi
        self.phi = after
        return obs, shaped.astype(np.float32), dones, infos


class Budget(BaseCallback):
    """Stops training at the time budget and logs the curve."""

    def __init__(self, seconds, every, path):
        super().__init__()
        self.seconds, self.every, self.path = seconds, every, path
        self.began = time.perf_counter()
        self.scores = []
        self.next = every
        self.rows = []

    def _on_step(self):
        for info in self.locals["infos"]:
            if "episode" in info:
                self.scores.append(info["score"])
        if self.num_timesteps >= self.next:
            self.next += self.every
            recent = self.scores[-500:]
            row = {
                "steps": self.num_timesteps,
                "minutes": round((time.perf_counter() - self.began) / 60, 2),
                "games": len(self.scores),
                "mean_score": round(float(np.mean(recent)), 2) if recent else None,
            }
            self.rows.append(row)
            print(json.dumps(row), flush=True)
            with open(self.path, "w", newline="") as f:
                w = csv.DictWriter(f, fieldnames=list(row))
                w.writeheader()
                w.writerows(self.rows)
        return time.perf_counter() - self.began < self.seconds


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--observation", choices=["percepts", "memory", "knowledge"], default="knowledge")
    p.add_argument("--minutes", type=float, default=30)
    p.add_argument("--envs", type=int, default=16)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--eval-worlds", type=int, default=1000)
    p.add_argument("--out", default="runs")
    p.add_argument("--shaping", action=argparse.BooleanOptionalAction, default=True,
                   help="learn from potential-based shaped rewards (scores stay the game's); memory and knowledge only")
    p.add_argument("--ent-coef", type=float, default=0.01)
    p.add_argument("--gamma", type=float, default=0.995)
    p.add_argument("--home", type=float, default=0.0, help="shaping: the potential lost a step from home with the gold")
    p.add_argument("--eval-max-steps", type=int, default=200, help="a game is cut off after this many actions (its score as charged)")
    p.add_argument("--load", metavar="MODEL", help="skip training: evaluate a model saved by an earlier run")
    a = p.parse_args()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    torch.set_num_threads(1)
    vec = WumpusVectorEnv(a.envs, "aima", observation=a.observation, mask=True, max_episode_steps=200)
    env = vec.to_sb3()
    # The shaping counts the cells visited, which only the map planes of memory and knowledge
    # hold: the percepts observation learns from the game's rewards alone.
    shaped = a.shaping and vec.layout is not None
    if shaped:
        env = Shaping(env, vec.layout, a.gamma, home=a.home)
    env = VecMonitor(env, info_keywords=("score",))
    env.seed(1_000_000 + a.seed)
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=128,
        batch_size=512,
        n_epochs=4,
        learning_rate=3e-4,
        gamma=a.gamma,
        gae_lambda=0.95,
        ent_coef=a.ent_coef,
        policy_kwargs={"net_arch": [256, 256]},
        seed=a.seed,
        verbose=0,
    )
    if a.load:
        model = MaskablePPO.load(a.load)
        trained = None
    else:
        budget = Budget(a.minutes * 60, 20_000, out / f"{a.observation}-curve.csv")
        began = time.perf_counter()
        model.learn(total_timesteps=10**10, callback=budget)
        trained = time.perf_counter() - began
        model.save(out / f"{a.observation}-model")

    def policy(deterministic):
        def act(observation, info):
            action, _ = model.predict(
                np.asarray(observation, dtype=np.float32).reshape(-1),
                action_masks=info["action_mask"].astype(bool),
                deterministic=deterministic,
            )
            return int(action)

        act.name = f"maskable-ppo-{a.observation}-{'deterministic' if deterministic else 'sampled'}"
        return act

    summaries = [
        harness.play_batch(policy(d), "aima", a.eval_worlds, 0, observation=a.observation, max_steps=a.eval_max_steps)
        for d in (True, False)
    ]
    result = {
        "observation": a.observation,
        "shaping": shaped,
        "trained_minutes": None if trained is None else round(trained / 60, 2),
        "steps": int(model.num_timesteps),
        "summaries": summaries,
    }
    (out / f"{a.observation}-eval{'-' + Path(a.load).stem if a.load else ''}.json").write_text(json.dumps(result, indent=1))
    for s in summaries:
        print(f"{s['agent']}: mean score {s['mean_score']:.2f} ± {s['mean_score_error']:.2f}, won {s['win_rate']:.1%}, endings {s['endings']}")


if __name__ == "__main__":
    main()

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
from stable_baselines3.common.vec_env import VecMonitor

from wumpus_logic import harness
from wumpus_logic.vector import WumpusVectorEnv


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
                self.scores.append(info["episode"]["r"])
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
    a = p.parse_args()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    torch.set_num_threads(1)
    vec = WumpusVectorEnv(a.envs, "aima", observation=a.observation, mask=True, max_episode_steps=200)
    env = VecMonitor(vec.to_sb3())
    env.seed(1_000_000 + a.seed)
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=128,
        batch_size=512,
        n_epochs=4,
        learning_rate=3e-4,
        gamma=0.995,
        gae_lambda=0.95,
        ent_coef=0.01,
        policy_kwargs={"net_arch": [256, 256]},
        seed=a.seed,
        verbose=0,
    )
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
        harness.play_batch(policy(d), "aima", a.eval_worlds, 0, observation=a.observation, max_steps=1000)
        for d in (True, False)
    ]
    result = {
        "observation": a.observation,
        "trained_minutes": round(trained / 60, 2),
        "steps": int(model.num_timesteps),
        "summaries": summaries,
    }
    (out / f"{a.observation}-eval.json").write_text(json.dumps(result, indent=1))
    for s in summaries:
        print(f"{s['agent']}: mean score {s['mean_score']:.2f} ± {s['mean_score_error']:.2f}, won {s['win_rate']:.1%}, endings {s['endings']}")


if __name__ == "__main__":
    main()

"""MaskablePPO (sb3-contrib) learning the textbook's Wumpus World, ``wumpus_logic/Aima-v0``
(4x4, pits at 0.2, or the course tournament's deal with ``--deal course``), from one of the
three observations, within a time budget; then the learner plays the evaluation's worlds,
seeds 0 to 999 (as ``wumpus solve --rules aima --seed 0 --worlds 1000`` deals them), both
its sampled and its deterministic policy, and the summaries are written beside the curve.

    pip install "./python[examples]"
    python python/examples/train_maskable_ppo.py --minutes 30 --out runs

Worlds are kept apart: training plays seeds from 1,000,000 up (``TRAIN_SEEDS``), the settings
below were chosen on seeds from 2,000,000 up (``--eval-seed 2000000``, ``VALIDATION_SEEDS``),
and the evaluation's seeds 0 to 999 are played only once training is over
(``python/tests/test_train_example.py`` checks that no training game is one of them).

It trains on the vector environment (``WumpusVectorEnv(...).to_sb3()``: every world stepped in
one call, on every core) with the mask of useful actions (those what was perceived proves
cannot kill, less those the player can tell do nothing) and rewards at the learner's scale
(a point is 0.001). The curve (``runs/OBSERVATION-curve.csv``) holds, every 20,000 steps, the
mean score of the last 500 training games with the PPO losses, explained variance and
entropy; ``runs/OBSERVATION-eval.json`` the evaluation's summaries.
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

#: The first seed training plays: world ``i``'s ``k``-th game is ``TRAIN_SEEDS + i + k * envs``.
TRAIN_SEEDS = 1_000_000
#: The first seed of the worlds the settings were chosen on.
VALIDATION_SEEDS = 2_000_000
#: A game is cut off after this many actions, in training and evaluation (its score as charged).
MAX_STEPS = 200


def training_env(envs, observation, deal=None, threads=None):
    """The training worlds: ``envs`` worlds of the textbook's rules (``deal="course"``: the
    course's deal, the size hidden), the mask of useful actions, as a Stable-Baselines3
    ``VecEnv`` whose first games are dealt from :data:`TRAIN_SEEDS`."""
    options = {"deal": deal} if deal else {}
    vec = WumpusVectorEnv(envs, "aima", observation=observation, mask="useful", max_episode_steps=MAX_STEPS,
                          threads=threads, **options)
    env = VecMonitor(vec.to_sb3(), info_keywords=("score", "seed"))
    return vec, env


class Budget(BaseCallback):
    """Stops training at the time budget and logs the curve, with the seeds of every game
    played (to check that none is an evaluation world)."""

    def __init__(self, seconds, every, path):
        super().__init__()
        self.seconds, self.every, self.path = seconds, every, path
        self.began = time.perf_counter()
        self.scores = []
        self.seeds = set()
        self.next = every
        self.rows = []

    def _on_step(self):
        for info in self.locals["infos"]:
            if "episode" in info:
                self.scores.append(info["score"])
                self.seeds.add(int(info["seed"]))
        if self.num_timesteps >= self.next:
            self.next += self.every
            recent = self.scores[-500:]
            logged = self.model.logger.name_to_value
            row = {
                "steps": self.num_timesteps,
                "minutes": round((time.perf_counter() - self.began) / 60, 2),
                "games": len(self.scores),
                "mean_score": round(float(np.mean(recent)), 2) if recent else None,
                "value_loss": logged.get("train/value_loss"),
                "explained_variance": logged.get("train/explained_variance"),
                "entropy_loss": logged.get("train/entropy_loss"),
            }
            self.rows.append(row)
            print(json.dumps(row), flush=True)
            if self.path is not None:
                with open(self.path, "w", newline="") as f:
                    w = csv.DictWriter(f, fieldnames=list(row))
                    w.writeheader()
                    w.writerows(self.rows)
        return time.perf_counter() - self.began < self.seconds


def model_for(env, a):
    """The learner, with the settings chosen on the validation worlds."""
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=a.n_steps,
        batch_size=a.batch_size,
        n_epochs=a.epochs,
        learning_rate=a.learning_rate,
        gamma=a.gamma,
        gae_lambda=0.95,
        ent_coef=a.ent_coef,
        policy_kwargs={"net_arch": [a.width, a.width]},
        seed=a.seed,
        verbose=0,
    )
    # The model's seed reseeds the environment (to seed, seed + 1, ...: the evaluation's
    # worlds); the training worlds are dealt from their own seeds.
    env.seed(TRAIN_SEEDS + a.seed * 100_000)
    return model


def train(a, out=None):
    """Trains for ``a.minutes``; returns the model, its budget (curve, seeds) and the minutes."""
    torch.set_num_threads(1)
    vec, env = training_env(a.envs, a.observation, a.deal)
    model = model_for(env, a)
    budget = Budget(a.minutes * 60, 20_000, None if out is None else out / f"{a.observation}-curve.csv")
    began = time.perf_counter()
    model.learn(total_timesteps=10**10 if a.steps is None else a.steps, callback=budget)
    return model, budget, (time.perf_counter() - began) / 60


def evaluate(model, a):
    """The learner's summaries on the evaluation's worlds, sampled and deterministic."""

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

    options = {"deal": a.deal} if a.deal else {}
    return [
        harness.play_batch(policy(d), "aima", a.eval_worlds, a.eval_seed, observation=a.observation,
                           max_steps=MAX_STEPS, mask="useful", **options)
        for d in (False, True)
    ]


def parser():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--observation", choices=["percepts", "memory", "knowledge"], default="knowledge")
    p.add_argument("--deal", choices=["course"], help="the course tournament's deal (4x4 to 7x7, size hidden)")
    p.add_argument("--minutes", type=float, default=30)
    p.add_argument("--steps", type=int, help="stop after this many steps instead (tests)")
    p.add_argument("--envs", type=int, default=32)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--eval-worlds", type=int, default=1000)
    p.add_argument("--eval-seed", type=int, default=0, help="the evaluation's first seed (settings: 2000000)")
    p.add_argument("--out", default="runs")
    p.add_argument("--n-steps", type=int, default=128)
    p.add_argument("--batch-size", type=int, default=1024)
    p.add_argument("--epochs", type=int, default=10)
    p.add_argument("--learning-rate", type=float, default=3e-4)
    p.add_argument("--gamma", type=float, default=0.99)
    p.add_argument("--ent-coef", type=float, default=0.01)
    p.add_argument("--width", type=int, default=128)
    p.add_argument("--load", metavar="MODEL", help="skip training: evaluate a model saved by an earlier run")
    return p


def main(argv=None):
    a = parser().parse_args(argv)
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    if a.load:
        model, trained, played = MaskablePPO.load(a.load), None, None
    else:
        model, budget, trained = train(a, out)
        played = budget.seeds
        model.save(out / f"{a.observation}-model")
    summaries = evaluate(model, a)
    evaluation = set(range(a.eval_seed, a.eval_seed + a.eval_worlds))
    result = {
        "observation": a.observation,
        "deal": a.deal or "uniform",
        "settings": {k: v for k, v in vars(a).items() if k not in ("out", "load")},
        "trained_minutes": None if trained is None else round(trained, 2),
        "steps": int(model.num_timesteps),
        "training_games": None if played is None else len(played),
        "training_games_on_evaluation_worlds": None if played is None else len(played & evaluation),
        "summaries": summaries,
    }
    name = f"{a.observation}{'-' + a.deal if a.deal else ''}-eval{'-' + Path(a.load).stem if a.load else ''}.json"
    (out / name).write_text(json.dumps(result, indent=1))
    for s in summaries:
        print(f"{s['player']}: mean score {s['mean_score']:.2f} ± {s['mean_score_error']:.2f}, "
              f"won {s['win_rate']:.1%}, endings {s['endings']}")
    return result


if __name__ == "__main__":
    main()

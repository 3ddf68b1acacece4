"""Random steps a second, side by side in one run: the pure-Python environment of the
textbook's rules (wumpus_logic.pure), the single environment (through gymnasium.make, with
and without the action mask), and the vector environment (with and without the mask).

    python python/bench/steps.py [--seconds 3] [--num-envs 4096]

Each figure is the number of environment steps taken in about --seconds of wall time, actions
drawn uniformly (numpy for the vector environment; with the mask, uniformly among the masked
actions). It prints its own figures; nothing here asserts a speed."""

import argparse
import os
import time

import gymnasium as gym
import numpy as np

import wumpus_logic
from wumpus_logic.pure import PureAimaEnv
from wumpus_logic.vector import WumpusVectorEnv


def single(env, seconds, masked):
    rng = np.random.default_rng(0)
    obs, info = env.reset(seed=0)
    n, start = 0, time.perf_counter()
    while True:
        for _ in range(1000):
            if masked:
                allowed = np.flatnonzero(info["action_mask"])
                action = int(rng.choice(allowed))
            else:
                action = int(rng.integers(6))
            obs, reward, terminated, truncated, info = env.step(action)
            if terminated or truncated:
                obs, info = env.reset()
        n += 1000
        if time.perf_counter() - start > seconds:
            return n / (time.perf_counter() - start)


def pure(seconds):
    import random

    env = PureAimaEnv()
    env.reset(seed=0)
    draw = random.Random(0).randrange
    n, start = 0, time.perf_counter()
    while True:
        for _ in range(1000):
            obs, reward, terminated, truncated, info = env.step(draw(6))
            if terminated:
                env.reset()
        n += 1000
        if time.perf_counter() - start > seconds:
            return n / (time.perf_counter() - start)


def vector(num_envs, seconds, masked):
    env = WumpusVectorEnv(num_envs, "aima", mask=masked)
    obs, infos = env.reset(seed=0)
    rng = np.random.default_rng(0)
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        if masked:
            # Uniform among each world's allowed actions: the first allowed at a random rank.
            mask = infos["action_mask"].astype(bool)
            keys = rng.random(mask.shape) + mask
            actions = keys.argmax(axis=1)
        else:
            actions = rng.integers(0, 6, size=num_envs)
        obs, rewards, terminated, truncated, infos = env.step(actions)
        n += num_envs
    return n / (time.perf_counter() - start)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--seconds", type=float, default=3.0)
    p.add_argument("--num-envs", type=int, default=16384)
    p.add_argument("--masked-envs", type=int, default=256)
    a = p.parse_args()
    rows = []
    py = pure(a.seconds)
    rows.append(("pure-Python env (textbook rules, no mask)", py))
    rows.append(("single env, gymnasium.make, no mask", single(gym.make("wumpus_logic/Aima-v0", mask=False), a.seconds, False)))
    rows.append(("single env, gymnasium.make, with mask", single(gym.make("wumpus_logic/Aima-v0"), a.seconds, True)))
    vec = vector(a.num_envs, a.seconds, False)
    rows.append((f"vector env, {a.num_envs} worlds, no mask", vec))
    rows.append((f"vector env, {a.masked_envs} worlds, with mask", vector(a.masked_envs, a.seconds, True)))
    print(f"wumpus_logic {wumpus_logic.__file__}; {os.cpu_count()} cores; {a.seconds} s a figure")
    for what, rate in rows:
        print(f"{what:48s} {rate:>14,.0f} steps/s  ({rate / py:8.1f}x pure Python)")


if __name__ == "__main__":
    main()

"""Tabular Q-learning on the textbook's rules (4x4), with and without the action mask, numpy
only; the two learning curves are saved as a picture (matplotlib, for this example alone).

    python python/examples/q_learning.py [--episodes 30000] [--out docs/img/python-q-learning.png]

The learner's state is what a player knows of its own game: where it stands and faces (the
environment's info), whether it carries the gold (it grabbed where it saw glitter), and this
turn's stench, breeze and glitter. Two settings, one panel each: one world learned again and
again (the world of `wumpus play --rules aima --seed 2`), and a new random world every episode
(seed = episode). The masked learner explores and exploits only among the actions the mask
allows (those proven not to kill); the other may take any action. A curve is the mean score
(the sum of rewards) of each block of episodes while learning (epsilon-greedy, epsilon 0.1)."""

import argparse

import gymnasium as gym
import numpy as np

import wumpus_logic  # noqa: F401  (registers the environments)


def key(info, obs, carrying):
    return (info["at"], info["facing"], carrying, int(obs[0]), int(obs[1]), int(obs[2]))


def learn(episodes, masked, world=None, seed=0, alpha=0.2, gamma=1.0, epsilon=0.1):
    """Mean scores by episode; every episode on the world dealt from `world`, or, when it is
    None, episode `i` on the world of seed `i`."""
    env = gym.make("wumpus_logic/Aima-v0", max_episode_steps=100)
    rng = np.random.default_rng(seed)
    q = {}
    scores = np.zeros(episodes)
    for episode in range(episodes):
        obs, info = env.reset(seed=episode if world is None else world)
        carrying, done, total = False, False, 0.0
        state = key(info, obs, carrying)
        while not done:
            allowed = np.flatnonzero(info["action_mask"]) if masked else np.arange(6)
            values = q.setdefault(state, np.zeros(6))
            if rng.random() < epsilon:
                action = int(rng.choice(allowed))
            else:
                best = values[allowed].max()
                action = int(rng.choice(allowed[values[allowed] == best]))
            saw_glitter = obs[2] == 1
            obs, reward, terminated, truncated, info = env.step(action)
            carrying = carrying or (action == 3 and saw_glitter)
            total += reward
            done = terminated or truncated
            nxt = key(info, obs, carrying)
            if terminated:
                target = reward
            else:
                following = q.setdefault(nxt, np.zeros(6))
                nallowed = np.flatnonzero(info["action_mask"]) if masked else np.arange(6)
                target = reward + gamma * following[nallowed].max()
            values[action] += alpha * (target - values[action])
            state = nxt
        scores[episode] = total
    return scores


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--episodes", type=int, default=8000)
    p.add_argument("--block", type=int, default=200)
    p.add_argument("--world", type=int, default=2, help="the seed of the one world of the left panel")
    p.add_argument("--out", default="docs/img/python-q-learning.png")
    a = p.parse_args()
    panels = {}
    for title, world in ((f"one world (seed {a.world}), learned again and again", a.world), ("a new random world every episode", None)):
        curves = {}
        for masked in (False, True):
            scores = learn(a.episodes, masked, world)
            blocks = scores[: len(scores) // a.block * a.block].reshape(-1, a.block).mean(axis=1)
            curves["with the action mask" if masked else "without the mask"] = blocks
            print(f"{title}; {'masked' if masked else 'unmasked'}: mean score by block of {a.block}:", " ".join(f"{b:.0f}" for b in blocks))
        panels[title] = curves
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    for ax, (title, curves) in zip(axes, panels.items()):
        x = (np.arange(len(next(iter(curves.values())))) + 1) * a.block
        for label, blocks in curves.items():
            ax.plot(x, blocks, label=label)
        ax.set_xlabel("episodes")
        ax.set_ylabel(f"mean score of each {a.block} episodes")
        ax.set_title(title, fontsize=10)
        ax.legend()
        ax.grid(alpha=0.3)
    fig.suptitle("Tabular Q-learning, textbook rules, 4x4 (wumpus_logic/Aima-v0)")
    fig.tight_layout()
    fig.savefig(a.out, dpi=100)
    print("saved", a.out)


if __name__ == "__main__":
    main()

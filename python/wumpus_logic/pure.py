"""A pure-Python environment of the textbook's rules (4x4, pits with chance 0.2 off the start,
the wumpus and the gold uniform off the start, the same actions, percepts and scoring as
``wumpus_logic/Aima-v0``), written only as the yardstick of the benchmark
(``python/bench/steps.py``): what an environment in Python alone costs a step. It deals its
own worlds from Python's ``random``; it is not seed-compatible with the command line."""

import random

import gymnasium as gym
import numpy as np
from gymnasium import spaces

# Facing: 0 east, 1 north, 2 west, 3 south; (row, column) steps.
STEPS = [(0, 1), (1, 0), (0, -1), (-1, 0)]


class PureAimaEnv(gym.Env):
    metadata = {"render_modes": []}

    def __init__(self, size=4, pit_prob=0.2):
        self.size, self.pit_prob = size, pit_prob
        self.action_space = spaces.Discrete(6)
        self.observation_space = spaces.MultiBinary(5)
        self.rng = random.Random()

    def _percepts(self, bump=False, scream=False):
        r, c = self.at
        near = [(r + dr, c + dc) for dr, dc in STEPS]
        stench = self.wumpus == self.at or self.wumpus in near
        breeze = any(p in self.pits for p in near)
        glitter = self.gold == self.at and not self.has_gold
        return np.array([stench, breeze, glitter, bump, scream], dtype=np.int8)

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        if seed is not None:
            self.rng.seed(seed)
        n = self.size
        cells = [(r, c) for r in range(n) for c in range(n) if (r, c) != (0, 0)]
        self.pits = {cell for cell in cells if self.rng.random() < self.pit_prob}
        self.wumpus = self.rng.choice(cells)
        self.gold = self.rng.choice(cells)
        self.at, self.facing = (0, 0), 0
        self.has_gold, self.arrow, self.alive_wumpus = False, True, True
        return self._percepts(), {}

    def step(self, action):
        reward, bump, scream, done = -1, False, False, False
        if action == 0:
            dr, dc = STEPS[self.facing]
            r, c = self.at[0] + dr, self.at[1] + dc
            if 0 <= r < self.size and 0 <= c < self.size:
                self.at = (r, c)
                if self.at in self.pits or (self.alive_wumpus and self.at == self.wumpus):
                    reward, done = reward - 1000, True
            else:
                bump = True
        elif action == 1:
            self.facing = (self.facing + 1) % 4
        elif action == 2:
            self.facing = (self.facing + 3) % 4
        elif action == 3:
            if self.gold == self.at:
                self.has_gold = True
        elif action == 4:
            if self.arrow:
                self.arrow = False
                reward -= 10
                dr, dc = STEPS[self.facing]
                r, c = self.at
                while 0 <= r < self.size and 0 <= c < self.size:
                    if (r, c) == self.wumpus and self.alive_wumpus:
                        self.alive_wumpus, scream = False, True
                    r, c = r + dr, c + dc
        elif action == 5 and self.at == (0, 0):
            done = True
            if self.has_gold:
                reward += 1000
        return self._percepts(bump, scream), float(reward), done, False, {}

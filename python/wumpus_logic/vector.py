"""The vector environment: many worlds of one rule set stepped in one call into the Rust core
(:class:`WumpusVectorEnv`), following Gymnasium's vector API with next-step autoreset.

World ``i``'s ``k``-th game is dealt from seed ``base + i + k * num_envs``, where ``base`` is
the seed given to :meth:`WumpusVectorEnv.reset` (or drawn from the environment's generator):
``WumpusEnv.reset(seed=base + i + k * num_envs)`` replays it alone. A game is truncated after
``max_episode_steps`` actions. With ``mask=True``, ``infos["action_mask"]`` holds each world's
action mask (``num_envs × actions``, ``int8``), from a logic agent that follows each world.
"""

import numpy as np
from gymnasium import spaces as gspaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from . import _core
from .envs import MAX_EPISODE_STEPS, observation_space


class WumpusVectorEnv(VectorEnv):
    """``num_envs`` worlds of ``rules`` (options as :class:`wumpus_logic.envs.WumpusEnv`; the
    worlds give no hints, so ``agent`` and ``depth`` are refused with a ``ValueError``)."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(self, num_envs, rules="aima", mask=False, max_episode_steps=MAX_EPISODE_STEPS, render_mode=None, **options):
        if render_mode is not None:
            raise ValueError("the vector environment does not render; render one world with WumpusEnv")
        self.num_envs = int(num_envs)
        self.rules = rules
        self.mask = bool(mask)
        self.render_mode = None
        self.worlds = _core.Worlds(rules, self.num_envs, int(max_episode_steps), self.mask, **options)
        places = _core.Game(rules, 0, **options).places
        self.action_names, self.observation_names, _ = _core.spaces(rules, places)
        self.single_action_space = gspaces.Discrete(len(self.action_names))
        self.single_observation_space = observation_space(rules, places)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        n = self.num_envs
        self._obs = np.zeros((n, len(self.observation_names)), dtype=np.int8)
        self._rewards = np.zeros(n, dtype=np.float64)
        self._terminated = np.zeros(n, dtype=bool)
        self._truncated = np.zeros(n, dtype=bool)
        self._masks = np.zeros((n, len(self.action_names)), dtype=bool) if self.mask else None
        self._every = np.ones(n, dtype=bool)

    def _infos(self):
        if not self.mask:
            return {}
        return {"action_mask": self._masks.astype(np.int8), "_action_mask": self._every.copy()}

    def reset(self, *, seed=None, options=None):
        if options:
            raise ValueError("the vector environment takes no reset options")
        if seed is not None and not isinstance(seed, (int, np.integer)):
            raise ValueError("the vector environment takes one seed (an int): world i plays seed + i")
        super().reset(seed=seed)
        base = int(seed) if seed is not None else int(self.np_random.integers(0, 2**63 - 1))
        self.worlds.reset(base, self._obs, self._rewards, self._terminated, self._truncated, self._masks)
        return self._obs.copy(), self._infos()

    def step(self, actions):
        actions = np.ascontiguousarray(actions, dtype=np.int64)
        self.worlds.step(actions, self._obs, self._rewards, self._terminated, self._truncated, self._masks)
        return (
            self._obs.copy(),
            self._rewards.copy(),
            self._terminated.copy(),
            self._truncated.copy(),
            self._infos(),
        )

    def seeds(self):
        """The seed of the game each world plays now."""
        return self.worlds.seeds()

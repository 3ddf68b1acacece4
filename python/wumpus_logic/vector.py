"""The vector environment: many worlds of one rule set stepped in one call into the Rust core
(:class:`WumpusVectorEnv`), following Gymnasium's vector API with next-step autoreset, and the
same worlds as a Stable-Baselines3 ``VecEnv`` (:meth:`WumpusVectorEnv.to_sb3`).

World ``i``'s ``k``-th game is dealt from seed ``base + i + k * num_envs``, where ``base`` is
the seed given to :meth:`WumpusVectorEnv.reset` (or drawn from the environment's generator):
``WumpusEnv.reset(seed=base + i + k * num_envs)`` replays it alone. A game is truncated after
``max_episode_steps`` actions. ``observation`` is ``"percepts"``, ``"memory"`` or
``"knowledge"``, as for :class:`wumpus_logic.envs.WumpusEnv`. ``infos`` holds, a value a world
(with Gymnasium's ``_name`` flags): ``score`` (the score so far: the final score on the step a
game ends), ``outcome`` (``won``, ``pit``, ... or ``unfinished`` for a game cut off; ``None``
while it goes on), ``seed``, and with ``mask=True`` (or ``"harmless"``, or ``"useful"``, as for
:class:`wumpus_logic.envs.WumpusEnv`) ``action_mask`` (``num_envs × actions``, ``int8``), from a
logic agent that follows each world. :meth:`WumpusVectorEnv.action_masks` gives the masks as
booleans. Rewards are scaled as :class:`wumpus_logic.envs.WumpusEnv` scales them
(``reward_scale``); ``infos["score"]`` is in raw points. The worlds are stepped on every core
(``threads`` sets how many), each share of them on a thread of its own.
"""

import numpy as np
from gymnasium import spaces as gspaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from . import _core
from .envs import MAX_EPISODE_STEPS, default_reward_scale, mask_kind, observation_space


# The outcome of each code the worlds report: None while a game goes on, then every ending.
_OUTCOMES = np.array(_core.Worlds.outcome_names(), dtype=object)


class WumpusVectorEnv(VectorEnv):
    """``num_envs`` worlds of ``rules`` (options as :class:`wumpus_logic.envs.WumpusEnv`; the
    worlds give no hints, so ``agent`` and ``depth`` are refused with a ``ValueError``)."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(self, num_envs, rules="aima", mask=False, max_episode_steps=MAX_EPISODE_STEPS,
                 render_mode=None, observation="percepts", reward_scale=None, threads=None, **options):
        if render_mode is not None:
            raise ValueError("the vector environment does not render; render one world with WumpusEnv")
        self.num_envs = int(num_envs)
        self.rules = rules
        self.mask = mask_kind(mask)
        self.reward_scale = default_reward_scale(rules) if reward_scale is None else float(reward_scale)
        self.observation = observation
        self.options = options
        self.max_episode_steps = int(max_episode_steps)
        self.render_mode = None
        self.worlds = _core.Worlds(rules, self.num_envs, self.max_episode_steps, self.mask,
                                   observation=observation, threads=threads, **options)
        self.layout = self.worlds.layout()
        places = _core.Game(rules, 0, **options).places
        self.action_names, self.observation_names, _ = _core.spaces(rules, places)
        if self.layout is not None:
            self.observation_names = list(self.layout[0]) + list(self.layout[2])
        self.single_action_space = gspaces.Discrete(len(self.action_names))
        self.single_observation_space = observation_space(rules, places, self.layout)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        n = self.num_envs
        if self.layout is None:
            self._obs = np.zeros((n, len(self.observation_names)), dtype=np.int8)
        else:
            self._obs = np.zeros((n, int(np.prod(self.layout[1])) + len(self.layout[2])), dtype=np.float32)
        self._rewards = np.zeros(n, dtype=np.float64)
        self._terminated = np.zeros(n, dtype=bool)
        self._truncated = np.zeros(n, dtype=bool)
        self._masks = np.zeros((n, len(self.action_names)), dtype=bool) if self.mask else None
        self._every = np.ones(n, dtype=bool)
        # Where each world stands, written by every call: seed, score, whether it is known,
        # and the outcome's code (an index into _OUTCOMES).
        self._reports = (
            np.zeros(n, dtype=np.int64),
            np.zeros(n, dtype=np.int64),
            np.zeros(n, dtype=bool),
            np.zeros(n, dtype=np.uint8),
        )

    def _infos(self):
        seeds, scores, scored, outcomes = self._reports
        infos = {
            "score": scores.copy(),
            "_score": scored.copy(),
            "outcome": _OUTCOMES[outcomes],
            "_outcome": self._every.copy(),
            "seed": seeds.copy(),
            "_seed": self._every.copy(),
        }
        if self.mask:
            infos["action_mask"] = self._masks.astype(np.int8)
            infos["_action_mask"] = self._every.copy()
        return infos

    def reset(self, *, seed=None, options=None):
        if options:
            raise ValueError("the vector environment takes no reset options")
        if seed is not None and not isinstance(seed, (int, np.integer)):
            raise ValueError("the vector environment takes one seed (an int): world i plays seed + i")
        super().reset(seed=seed)
        base = int(seed) if seed is not None else int(self.np_random.integers(0, 2**63 - 1))
        self.worlds.reset(base, self._obs, self._rewards, self._terminated, self._truncated, self._masks,
                          self._reports)
        return self._obs.copy(), self._infos()

    def step(self, actions):
        actions = np.ascontiguousarray(actions, dtype=np.int64)
        self.worlds.step(actions, self._obs, self._rewards, self._terminated, self._truncated, self._masks,
                         self._reports)
        return (
            self._obs.copy(),
            self._rewards * self.reward_scale,
            self._terminated.copy(),
            self._truncated.copy(),
            self._infos(),
        )

    def action_masks(self):
        """Each world's action mask, ``num_envs × actions`` booleans (``mask=True``)."""
        if not self.mask:
            raise ValueError("this vector environment keeps no masks: make it with mask=True")
        return self._masks.copy()

    def seeds(self):
        """The seed of the game each world plays now."""
        return [int(s) for s in self._reports[0]]

    def to_sb3(self):
        """These worlds as a Stable-Baselines3 ``VecEnv`` (same-step autoreset, the terminal
        observation in ``infos[i]["terminal_observation"]``, ``env_method("action_masks")``
        for sb3-contrib's ``MaskablePPO``): ``PPO("MlpPolicy", WumpusVectorEnv(8,
        "aima").to_sb3())``. Needs ``stable-baselines3``."""
        from .sb3 import SB3VecEnv

        return SB3VecEnv(self)

"""The vector environment as a Stable-Baselines3 ``VecEnv`` (:class:`SB3VecEnv`), made by
:meth:`wumpus_logic.vector.WumpusVectorEnv.to_sb3`: Stable-Baselines3 steps it directly, with
no copy of a single environment per world.

Stable-Baselines3 resets a finished game on the step it ends (same-step autoreset): the
observation returned for that world is the next game's first, the last one is in
``infos[i]["terminal_observation"]``, and ``infos[i]`` also carries ``score`` and ``outcome``
(``unfinished`` for a game cut off, with ``TimeLimit.truncated``). ``env_method("action_masks")``
gives each world's action mask, as sb3-contrib's ``MaskablePPO`` asks for it (the vector
environment must be made with ``mask=True``). Wrap it in ``VecMonitor`` for episode returns in
the training logs.
"""

import numpy as np
from stable_baselines3.common.vec_env import VecEnv


class SB3VecEnv(VecEnv):
    """A :class:`wumpus_logic.vector.WumpusVectorEnv` seen through Stable-Baselines3's API."""

    def __init__(self, env):
        self.env = env
        self._actions = None
        super().__init__(env.num_envs, env.single_observation_space, env.single_action_space)

    def reset(self):
        seed = None
        seeds = getattr(self, "_seeds", None)
        if seeds and seeds[0] is not None:
            seed = int(seeds[0])
        obs, _ = self.env.reset(seed=seed)
        if hasattr(self, "_reset_seeds"):
            self._reset_seeds()
        return obs

    def step_async(self, actions):
        self._actions = np.ascontiguousarray(actions, dtype=np.int64)

    def step_wait(self):
        e = self.env
        obs, rewards, terminated, truncated, infos = e.step(self._actions)
        dones = terminated | truncated
        out = [{} for _ in range(self.num_envs)]
        for i in np.flatnonzero(dones):
            out[i] = {
                "terminal_observation": obs[i],
                "TimeLimit.truncated": bool(truncated[i] and not terminated[i]),
                "score": int(infos["score"][i]) if infos["_score"][i] else None,
                "outcome": infos["outcome"][i],
                "seed": int(infos["seed"][i]),
            }
        if dones.any():
            e.worlds.reset_finished(e._obs, e._rewards, e._terminated, e._truncated, e._masks, e._reports)
            obs = e._obs.copy()
        return obs, rewards.astype(np.float32), dones, out

    def close(self):
        pass

    def _indices(self, indices):
        if indices is None:
            return range(self.num_envs)
        if isinstance(indices, int):
            return [indices]
        return indices

    def get_attr(self, attr_name, indices=None):
        value = getattr(self.env, attr_name)
        return [value for _ in self._indices(indices)]

    def set_attr(self, attr_name, value, indices=None):
        raise AttributeError(f"the vector environment's {attr_name} cannot be set per world")

    def env_method(self, method_name, *method_args, indices=None, **method_kwargs):
        if method_name == "action_masks":
            masks = self.env.action_masks()
            return [masks[i] for i in self._indices(indices)]
        raise AttributeError(f"the worlds have no method {method_name!r} (only action_masks)")

    def env_is_wrapped(self, wrapper_class, indices=None):
        return [False for _ in self._indices(indices)]

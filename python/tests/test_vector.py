"""The vector environment equals the same worlds stepped one by one."""

import gymnasium as gym
import numpy as np
import pytest

from wumpus_logic import ENV_IDS, Game
from wumpus_logic.vector import WumpusVectorEnv

from conftest import RULES


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("mask", [False, True])
def test_vector_equals_worlds_one_by_one(rules, mask):
    n, base, limit = 6, 100, 40
    vec = WumpusVectorEnv(n, rules, mask=mask, max_episode_steps=limit)
    obs, infos = vec.reset(seed=base)
    games = [Game(rules, base + i) for i in range(n)]
    played = [1] * n
    pending = [False] * n
    rng = np.random.default_rng(1)
    assert (obs == np.array([g.observation() for g in games])).all()
    episodes = 0
    for _ in range(300):
        actions = rng.integers(0, vec.single_action_space.n, size=n)
        obs, rewards, terminated, truncated, infos = vec.step(actions)
        for i, g in enumerate(games):
            if pending[i]:
                g.reset(base + i + played[i] * n)
                played[i] += 1
                pending[i] = False
                assert rewards[i] == 0 and not terminated[i] and not truncated[i]
            else:
                assert rewards[i] == pytest.approx(g.step(int(actions[i])) * vec.reward_scale)
                assert terminated[i] == g.over
                assert truncated[i] == (not g.over and g.steps >= limit)
                pending[i] = terminated[i] or truncated[i]
                episodes += pending[i]
            assert list(obs[i]) == list(g.observation()), i
            if mask:
                expected = g.action_mask() if not g.over else [False] * vec.single_action_space.n
                assert list(infos["action_mask"][i].astype(bool)) == expected
        assert vec.seeds() == [g.seed for g in games]
    assert episodes > n


def test_make_vec_and_spaces():
    vec = gym.make_vec(ENV_IDS["aima"], num_envs=3, vectorization_mode="vector_entry_point")
    obs, _ = vec.reset(seed=0)
    assert vec.observation_space.contains(obs)
    obs, rewards, terminated, truncated, _ = vec.step(vec.action_space.sample())
    assert obs.shape == (3, 5) and rewards.dtype == np.float64 and terminated.dtype == bool
    with pytest.raises(ValueError):
        vec.step(np.array([0, 1, 9]))


def test_sizes_are_bounded_before_anything_is_built():
    """A vector of a billion worlds, or arrays of a 4096x4096 board, are refused at once with a
    ValueError, not an abort or gigabytes of memory."""
    import time

    import gymnasium as gym
    from wumpus_logic.envs import ENV_IDS

    started = time.perf_counter()
    with pytest.raises(ValueError, match="n must be 1 to"):
        WumpusVectorEnv(10**9, "aima")
    with pytest.raises(ValueError, match="arrays"):
        gym.make(ENV_IDS["grid"], size="4096x4096", observation="knowledge")
    assert time.perf_counter() - started < 5

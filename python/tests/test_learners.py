"""What a learner reads: the observations of memory and knowledge for every rule set, the
libraries' own interfaces (Gymnasium's and Stable-Baselines3's checkers, sb3-contrib's
``action_masks``, the vector environment as a ``VecEnv``), honest scores for a game cut off,
the reasoning as arrays, games and environments that pickle and copy, and evaluation
scaled out on Ray. With ``CI`` set, a library these tests need that is missing fails them."""

import copy
import os
import pickle
import warnings

import gymnasium as gym
import numpy as np
import pytest

import wumpus_logic
from conftest import RULES
from wumpus_logic import harness
from wumpus_logic.envs import ENV_IDS, OBSERVATIONS
from wumpus_logic.vector import WumpusVectorEnv


def need(module):
    """The module, or a failure under CI (a skip elsewhere) when it is not installed."""
    try:
        return __import__(module)
    except ImportError:
        message = f"{module} is not installed (.ci/test installs it)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("observation", OBSERVATIONS)
def test_every_id_and_observation_passes_gymnasiums_and_sb3s_checkers(rules, observation):
    need("stable_baselines3")
    from gymnasium.utils.env_checker import check_env as gym_check
    from stable_baselines3.common.env_checker import check_env as sb3_check

    env = gym.make(ENV_IDS[rules], observation=observation)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        gym_check(env.unwrapped, skip_render_check=True)
        sb3_check(env.unwrapped, warn=True)
    obs, info = env.reset(seed=3)
    assert env.observation_space.contains(obs)
    masks = env.unwrapped.action_masks()
    assert masks.dtype == bool and (masks == info["action_mask"].astype(bool)).all()


def test_the_memory_holds_what_was_perceived_where():
    env = gym.make(ENV_IDS["aima"], observation="memory")
    env.reset(seed=0)  # 0,1 east of the start holds no pit
    channels, shape, scalars = env.unwrapped.layout
    at = {name: i for i, name in enumerate(channels)}
    obs, *_ = env.step(0)  # forward, from 0,0 facing east
    obs, *_ = env.step(1)  # turn left: facing north
    planes = obs[: int(np.prod(shape))].reshape(shape)
    scalar = dict(zip(scalars, obs[int(np.prod(shape)):]))
    assert scalar["facing_north"] == 1 and scalar["facing_east"] == 0
    game = env.unwrapped.game
    row, col = (int(v) for v in game.at.split(","))
    assert planes[at["here"], row, col] == 1 and planes[at["here"]].sum() == 1
    assert planes[at["visited"], 0, 0] == 1 and planes[at["visited"], row, col] == 1
    assert scalar["arrow"] == 1 and scalar["gold"] == 0 and scalar["at_start"] == 0
    # This turn's percepts are scalars too: a turn bumps into nothing.
    assert scalar["now_bump"] == 0


@pytest.mark.parametrize("rules", RULES)
def test_the_knowledge_channels_are_what_the_logic_proves(rules):
    env = gym.make(ENV_IDS[rules], observation="knowledge", agent="logic")
    env.reset(seed=11)
    for _ in range(6):
        if env.unwrapped.game.over:
            break
        hint = env.unwrapped.hint()
        known = env.unwrapped.knowledge()
        layout = env.unwrapped.layout
        board = env.unwrapped.game.grid_size
        labels = hint["proven_safe"] + hint["visited"]
        if board is not None and rules in ("aima", "grid"):
            for label in labels:
                r, c = (int(v) for v in label.split(","))
                assert known["proven_safe"][r, c] == 1, label
            assert known["proven_safe"].sum() == len(set(labels))
        for name in ("p_pit", "p_death"):
            values = known[name]
            assert ((values == -1) | ((values >= 0) & (values <= 1))).all()
        assert list(known) == list(layout[0]) + (["tunnels"] if "tunnels" in known else []) + list(layout[2])
        env.unwrapped.follow_hint()


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("observation", ["memory", "knowledge"])
def test_the_vector_environment_observes_as_one_world_does(rules, observation):
    n, base = 3, 40
    vec = WumpusVectorEnv(n, rules, observation=observation, mask=True, max_episode_steps=30)
    obs, infos = vec.reset(seed=base)
    singles = [gym.make(ENV_IDS[rules], observation=observation, max_episode_steps=30).unwrapped for _ in range(n)]
    for i, env in enumerate(singles):
        single, _ = env.reset(seed=base + i)
        assert np.allclose(obs[i], single), i
        assert env.observation_space.contains(single)
    rng = np.random.default_rng(0)
    for _ in range(12):
        actions = rng.integers(0, vec.single_action_space.n, n)
        obs, rewards, terminated, truncated, infos = vec.step(actions)
        for i, env in enumerate(singles):
            if env.game.over or env.game.steps >= 30:
                continue
            single, reward, *_ = env.step(int(actions[i]))
            assert reward == rewards[i]
            assert np.allclose(obs[i], single), i
            assert infos["seed"][i] == env.game.seed
        assert set(infos) >= {"score", "outcome", "seed", "action_mask"}


def test_a_game_cut_off_counts_at_its_real_score():
    turn_left = lambda observation, info: 1  # noqa: E731
    summary = harness.play_batch(turn_left, "aima", 10, 0, max_steps=200)
    assert summary["endings"] == {"unfinished": 10}
    assert summary["mean_score"] == -200.0
    table = harness.table([summary])
    assert "unfinished" in table and "-200.00" in table


@pytest.mark.parametrize("rules", RULES)
def test_games_and_environments_pickle_and_copy(rules):
    env = gym.make(ENV_IDS[rules], observation="knowledge")
    env.reset(seed=5)
    for _ in range(3):
        if not env.unwrapped.game.over:
            env.unwrapped.follow_hint()
    for twin in (pickle.loads(pickle.dumps(env)), copy.deepcopy(env)):
        assert twin.unwrapped.game.actions() == env.unwrapped.game.actions()
        assert np.allclose(twin.unwrapped._obs(), env.unwrapped._obs())
        if not env.unwrapped.game.over:
            assert twin.unwrapped.hint() == env.unwrapped.hint()
    game = wumpus_logic.Game(rules, 9, observation="memory")
    game.step(0)
    again = pickle.loads(pickle.dumps(game))
    assert again.actions() == game.actions() and np.allclose(again.observation(), game.observation())


def test_hints_are_dicts_everywhere():
    game = wumpus_logic.Game("aima", 1)
    assert isinstance(game.hint(), dict)
    env = gym.make(ENV_IDS["aima"])
    env.reset(seed=1)
    assert env.unwrapped.hint() == game.hint()


def test_the_random_baseline_plays_the_textbooks_rules():
    summary = wumpus_logic.solve("aima", 200, agent="random")
    assert summary["game"]["agent"] == "random" and summary["games"] == 200
    assert summary["mean_score"] < 0


def test_maskable_ppo_trains_on_an_env_from_gym_make_with_no_wrapper():
    need("sb3_contrib")
    from sb3_contrib import MaskablePPO

    env = gym.make(ENV_IDS["aima"], observation="knowledge")
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=32, seed=0, verbose=0)
    model.learn(128)
    obs, info = env.reset(seed=0)
    action, _ = model.predict(obs, action_masks=env.unwrapped.action_masks(), deterministic=True)
    assert env.action_space.contains(int(action))


def test_the_vector_environment_trains_ppo_in_one_call():
    need("stable_baselines3")
    from sb3_contrib import MaskablePPO
    from stable_baselines3 import PPO
    from stable_baselines3.common.vec_env import VecMonitor

    vec = VecMonitor(WumpusVectorEnv(8, "aima", observation="memory").to_sb3())
    PPO("MlpPolicy", vec, n_steps=32, batch_size=64, seed=0, verbose=0).learn(512)
    masked = WumpusVectorEnv(8, "aima", observation="knowledge", mask=True).to_sb3()
    MaskablePPO("MlpPolicy", masked, n_steps=32, batch_size=64, seed=0, verbose=0).learn(512)


def test_evaluation_scales_out_on_ray_and_its_shards_add_up_to_solve():
    need("ray")
    import ray

    from wumpus_logic import scale

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, ignore_reinit_error=True)
    try:
        whole = wumpus_logic.solve("aima", 40, 100, agent="logic")
        merged = scale.solve("aima", 40, 100, shards=4, agent="logic")
        assert merged["totals"] == {**whole["totals"], "agent_nanos": merged["totals"]["agent_nanos"]}
        explorer = lambda observation, info: 5  # noqa: E731  (climbs out at once)
        alone = harness.play_batch(explorer, "aima", 40, 100, name="climber")
        spread = scale.play_batch(explorer, "aima", 40, 100, shards=4, name="climber")
        for key in ("games", "wins", "endings", "mean_score", "mean_moves"):
            assert spread[key] == alone[key], key
    finally:
        ray.shutdown()


def test_rllib_trains_on_the_environments():
    need("ray")
    need("torch")
    import ray

    try:
        from ray.rllib.algorithms.ppo import PPOConfig
    except ImportError as e:
        message = f"RLlib does not import ({e}; .ci/test installs ray[rllib])"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    from ray import tune

    tune.register_env("wumpus-aima-knowledge", lambda config: gym.make(ENV_IDS["aima"], **config))
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, ignore_reinit_error=True)
    algo = None
    try:
        config = (
            PPOConfig()
            .environment("wumpus-aima-knowledge", env_config={"observation": "knowledge"})
            .env_runners(num_env_runners=0, num_envs_per_env_runner=2, rollout_fragment_length=128)
            .training(train_batch_size_per_learner=256, minibatch_size=64, num_epochs=1)
            .debugging(seed=0)
        )
        algo = config.build_algo()
        result = algo.train()
        runners = result["env_runners"]
        assert runners["num_env_steps_sampled_lifetime"] >= 256
        assert np.isfinite(runners["episode_return_mean"])
    finally:
        if algo is not None:
            algo.stop()
        ray.shutdown()


@pytest.mark.parametrize("observation", OBSERVATIONS)
def test_the_harness_shows_an_agent_what_the_environment_shows(observation):
    env = gym.make(ENV_IDS["aima"], observation=observation)
    first, _ = env.reset(seed=7)
    seen = []

    def climber(obs, info):
        seen.append(obs)
        return 5

    harness.play_batch(climber, "aima", 1, 7, observation=observation)
    assert env.observation_space.contains(seen[0])
    assert np.array_equal(seen[0], first)

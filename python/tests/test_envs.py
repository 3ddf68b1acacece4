"""Every registered environment passes Gymnasium's checker, renders, replays from its seed,
and pays rewards that add up to the game's score."""

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import wumpus_logic
from wumpus_logic import ENV_IDS

from conftest import RULES


def test_the_installed_wheel_is_imported():
    assert "site-packages" in wumpus_logic.__file__, wumpus_logic.__file__
    assert wumpus_logic._core.__file__.endswith((".so", ".pyd"))


@pytest.mark.parametrize("env_id", list(ENV_IDS.values()))
@pytest.mark.parametrize("render_mode", ["ansi", "rgb_array"])
def test_check_env(env_id, render_mode):
    env = gym.make(env_id, render_mode=render_mode)
    check_env(env.unwrapped, skip_render_check=False)
    env.reset(seed=1)
    picture = env.render()
    if render_mode == "ansi":
        assert isinstance(picture, str) and "Hidden:" in picture
    else:
        assert picture.dtype == np.uint8 and picture.ndim == 3 and picture.shape[2] == 3


def test_the_textbook_spaces():
    env = gym.make(ENV_IDS["aima"])
    assert env.action_space == gym.spaces.Discrete(6)
    assert env.observation_space == gym.spaces.MultiBinary(5)
    assert env.unwrapped.observation_names == ["stench", "breeze", "glitter", "bump", "scream"]
    assert env.unwrapped.action_names == ["forward", "turn left", "turn right", "grab", "shoot", "climb"]


@pytest.mark.parametrize("rules", RULES)
def test_rewards_add_up_to_the_score(rules):
    env = gym.make(ENV_IDS[rules])
    rng = np.random.default_rng(5)
    ended = 0
    for episode in range(60):
        obs, info = env.reset(seed=1000 + episode)
        total, done = 0.0, False
        while not done:
            mask = info["action_mask"]
            action = env.action_space.sample(mask) if rng.random() < 0.7 and mask.any() else env.action_space.sample()
            obs, reward, terminated, truncated, info = env.step(action)
            total += reward
            done = terminated or truncated
            assert env.observation_space.contains(obs)
        if terminated:
            ended += 1
            game = env.unwrapped.game
            expected = game.score if rules != "maze" else int(game.outcome == "won")
            # Rewards are points at the learner's scale; the info keeps raw points.
            scale = env.unwrapped.reward_scale
            assert total == pytest.approx(expected * scale) and expected == info["score"], (total, game.score, info)
            assert info["outcome"] is not None
    assert ended > 0


@pytest.mark.parametrize("rules", RULES)
def test_the_mask_allows_no_death(rules):
    """A player who takes only masked actions never dies."""
    env = gym.make(ENV_IDS[rules], max_episode_steps=150)
    deaths = {"pit", "wumpus", "own_arrow"}
    for episode in range(40):
        obs, info = env.reset(seed=episode)
        done = False
        while not done and info["action_mask"].any():
            obs, _, terminated, truncated, info = env.step(env.action_space.sample(info["action_mask"]))
            done = terminated or truncated
        assert info["outcome"] not in deaths, (episode, info)


def test_the_same_seed_deals_the_same_world():
    a, b = gym.make(ENV_IDS["grid"]), gym.make(ENV_IDS["grid"])
    for seed in range(20):
        a.reset(seed=seed)
        b.reset(seed=seed)
        assert a.unwrapped.game.hidden() == b.unwrapped.game.hidden()
    # Unseeded resets follow the environment's own generator.
    a.reset(seed=3)
    b.reset(seed=3)
    a.reset()
    b.reset()
    assert a.unwrapped.game.seed == b.unwrapped.game.seed


def test_bad_actions_and_options_are_refused():
    env = gym.make(ENV_IDS["aima"])
    env.reset(seed=0)
    with pytest.raises(ValueError):
        env.unwrapped.game.step(6)
    with pytest.raises(ValueError):
        gym.make(ENV_IDS["aima"], size="1x9")
    with pytest.raises(ValueError):
        gym.make(ENV_IDS["aima"], map="x.txt")


def test_a_bad_world_file_is_refused_with_its_line(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("PIT 0 2\nWUMPUS nine 0\n")
    env = gym.make(ENV_IDS["aima"])
    with pytest.raises(ValueError, match=r"bad\.txt:2"):
        env.reset(options={"world": bad})
    with pytest.raises(ValueError, match="missing"):
        env.reset(options={"world": tmp_path / "missing.txt"})
    # The environment still plays after a refusal.
    obs, info = env.reset(seed=1)
    assert info["seed"] == 1

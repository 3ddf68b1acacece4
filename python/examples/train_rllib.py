"""RLlib's PPO learning ``wumpus_logic/Aima-v0`` (the textbook's Wumpus World, 4x4) from one of
the three observations, on a local Ray instance or the cluster ``RAY_ADDRESS`` names; then the
learned policy plays seeds 0 to N-1 (the worlds ``wumpus solve --rules aima`` deals) through the
harness, and its summary is printed.

    pip install "./python[rllib]"
    python python/examples/train_rllib.py --observation knowledge --iterations 20 --runners 2

Each iteration prints the steps sampled so far and the mean return of the games that ended in
it. Workers import ``wumpus_logic`` themselves: the environment is registered under a name
whose maker builds it with ``gym.make``.
"""

import argparse

import gymnasium as gym
import numpy as np
import ray
import torch
from ray import tune
from ray.rllib.algorithms.ppo import PPOConfig

from wumpus_logic import harness
from wumpus_logic.envs import ENV_IDS


def make(config):
    import wumpus_logic  # noqa: F401  (registers the ids in the worker)

    return gym.make(ENV_IDS["aima"], **config)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--observation", choices=["percepts", "memory", "knowledge"], default="knowledge")
    p.add_argument("--iterations", type=int, default=20)
    p.add_argument("--runners", type=int, default=0, help="env runner processes (0: sample in the driver)")
    p.add_argument("--eval-worlds", type=int, default=1000)
    a = p.parse_args()
    ray.init(ignore_reinit_error=True, include_dashboard=False)
    tune.register_env("wumpus-aima", make)
    algo = (
        PPOConfig()
        .environment("wumpus-aima", env_config={"observation": a.observation})
        .env_runners(num_env_runners=a.runners, num_envs_per_env_runner=8)
        .training(train_batch_size_per_learner=4000, minibatch_size=500, num_epochs=4, gamma=0.995)
        .debugging(seed=0)
        .build_algo()
    )
    for i in range(a.iterations):
        runners = algo.train()["env_runners"]
        print(f"iteration {i + 1}: {runners['num_env_steps_sampled_lifetime']} steps, "
              f"mean return {runners.get('episode_return_mean', float('nan')):.1f}", flush=True)
    module = algo.get_module()

    def policy(observation, info):
        batch = {"obs": torch.as_tensor(np.asarray(observation, dtype=np.float32).reshape(1, -1))}
        logits = module.forward_inference(batch)["action_dist_inputs"][0]
        return int(torch.argmax(logits))

    policy.name = f"rllib-ppo-{a.observation}"
    s = harness.play_batch(policy, "aima", a.eval_worlds, 0, observation=a.observation, max_steps=1000)
    print(f"{s['agent']}: mean score {s['mean_score']:.2f} ± {s['mean_score_error']:.2f}, "
          f"won {s['win_rate']:.1%}, endings {s['endings']}")
    algo.stop()
    ray.shutdown()


if __name__ == "__main__":
    main()

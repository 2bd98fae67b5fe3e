"""Masked DQN on Friday-v0 with Tianshou.

Tianshou's Q-learning policies mask illegal actions when the observation is a dict with
the keys ``obs`` and ``mask``: :func:`friday_env.wrappers.for_tianshou` gives exactly that
(the flat observation under ``obs``, a bool mask under ``mask``). The greedy action and the
epsilon-greedy exploration then pick legal actions only; the Q-network sees ``obs`` alone.

    python examples/tianshou_masked_dqn.py --level 1 --epochs 10

Needs tianshou (``pip install tianshou``; tested with tianshou 2.0 and torch 2.13).
"""

from __future__ import annotations

import argparse

import gymnasium as gym
import numpy as np
import torch
from tianshou.algorithm import DQN
from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy
from tianshou.algorithm.optim import AdamOptimizerFactory
from tianshou.data import Collector, VectorReplayBuffer
from tianshou.env import DummyVectorEnv
from tianshou.trainer import OffPolicyTrainerParams
from tianshou.utils.net.common import Net

import friday_env  # noqa: F401  (registers Friday-v0)
from friday_env.wrappers import for_tianshou


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    parser.add_argument("--level", type=int, default=1, help="Friday level 1-4")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--steps-per-epoch", type=int, default=10_000)
    parser.add_argument("--steps-per-collect", type=int, default=64)
    parser.add_argument("--num-envs", type=int, default=4)
    parser.add_argument("--buffer-size", type=int, default=50_000)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--test-games", type=int, default=10)
    parser.add_argument("--reward", default="score", help="Friday-v0 reward: win_loss or score")
    return parser.parse_args(argv)


def make_env(level: int, reward: str):
    def thunk() -> gym.Env:
        # illegal_action="raise": a masking bug stops the run instead of ending games as losses
        env = gym.make("Friday-v0", level=level, reward=reward, illegal_action="raise")
        return for_tianshou(env)

    return thunk


def train(args: argparse.Namespace) -> dict[str, float]:
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    env = make_env(args.level, args.reward)()
    training_envs = DummyVectorEnv([make_env(args.level, args.reward)] * args.num_envs)
    test_envs = DummyVectorEnv([make_env(args.level, args.reward)] * 2)
    training_envs.seed(args.seed)
    test_envs.seed(args.seed + 1000)
    n_obs = env.observation_space["obs"].shape[0]
    net = Net(state_shape=n_obs, action_shape=env.action_space.n, hidden_sizes=[128, 128])
    policy = DiscreteQLearningPolicy(
        model=net,
        action_space=env.action_space,
        observation_space=env.observation_space,
        eps_training=0.1,
        eps_inference=0.0,
    )
    algorithm = DQN(
        policy=policy,
        optim=AdamOptimizerFactory(lr=1e-3),
        gamma=0.99,
        n_step_return_horizon=3,
        target_update_freq=320,
    )
    buffer = VectorReplayBuffer(args.buffer_size, args.num_envs)
    training_collector = Collector(algorithm, training_envs, buffer, exploration_noise=True)
    test_collector = Collector(algorithm, test_envs, exploration_noise=False)
    # no random warm-up (collect(random=True)): it samples the action space without the mask
    training_collector.reset()
    result = algorithm.run_training(
        OffPolicyTrainerParams(
            training_collector=training_collector,
            test_collector=test_collector,
            max_epochs=args.epochs,
            epoch_num_steps=args.steps_per_epoch,
            collection_step_num_env_steps=args.steps_per_collect,
            test_step_num_episodes=args.test_games,
            batch_size=args.batch_size,
            update_step_num_gradient_steps_per_sample=0.1,
            show_progress=False,
        )
    )
    stats = test_collector.collect(n_episode=args.test_games)
    summary = {
        "env_steps": int(training_collector.collect_step),
        "gradient_steps": int(result.update_step),
        "test_games": int(stats.n_collected_episodes),
        "test_mean_reward": float(np.mean(stats.returns)),
    }
    print("summary:", summary)
    return summary


if __name__ == "__main__":
    train(parse_args())

"""Masked PPO on Friday-v0 with TorchRL: ``GymEnv`` + the ``ActionMask`` transform.

TorchRL reads the mask from the observation: make the env with ``observation="flat_mask"``
(``{"observation", "action_mask"}``), cast the mask to bool, and the ``ActionMask``
transform writes each step's mask into the action spec, so the policy's
``MaskedCategorical`` samples only legal actions (the default ``observation="flat"`` has
no mask for it to read). Actions are integer ids
(``categorical_action_encoding=True``), as the env expects.

    python examples/torchrl_masked_ppo.py --level 1 --total-frames 100000

Needs torchrl (``pip install torchrl``; tested with torchrl 0.14 and torch 2.13).
"""

from __future__ import annotations

import argparse

import torch
from tensordict.nn import TensorDictModule
from torch import nn
from torchrl.collectors import Collector
from torchrl.data import LazyTensorStorage, ReplayBuffer, SamplerWithoutReplacement
from torchrl.envs import GymEnv, TransformedEnv
from torchrl.envs.transforms import ActionMask, Compose, DTypeCastTransform
from torchrl.modules import MaskedCategorical, ProbabilisticActor, ValueOperator
from torchrl.objectives import ClipPPOLoss
from torchrl.objectives.value import GAE

import friday_env  # noqa: F401  (registers Friday-v0)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    parser.add_argument("--level", type=int, default=1, help="Friday level 1-4")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--total-frames", type=int, default=100_000)
    parser.add_argument("--frames-per-batch", type=int, default=1024)
    parser.add_argument("--minibatch", type=int, default=256)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--learning-rate", type=float, default=3e-4)
    parser.add_argument("--reward", default="score", help="Friday-v0 reward: win_loss or score")
    return parser.parse_args(argv)


def make_env(level: int, reward: str) -> TransformedEnv:
    env = GymEnv(
        "Friday-v0",
        level=level,
        reward=reward,
        observation="flat_mask",
        illegal_action="raise",  # a masking bug stops the run instead of ending games as losses
        categorical_action_encoding=True,
    )
    # the env's mask is int8 (Gymnasium's mask type); TorchRL masks with bool tensors
    to_bool = DTypeCastTransform(torch.int8, torch.bool, in_keys=["action_mask"])
    return TransformedEnv(env, Compose(to_bool, ActionMask()))


def mlp(n_in: int, n_out: int) -> nn.Sequential:
    return nn.Sequential(
        nn.Linear(n_in, 64), nn.Tanh(), nn.Linear(64, 64), nn.Tanh(), nn.Linear(64, n_out)
    )


def build(env: TransformedEnv) -> tuple[ProbabilisticActor, ValueOperator]:
    n_obs = env.observation_spec["observation"].shape[-1]
    n_actions = env.action_spec.space.n
    logits = TensorDictModule(mlp(n_obs, n_actions), in_keys=["observation"], out_keys=["logits"])
    actor = ProbabilisticActor(
        logits,
        in_keys={"logits": "logits", "mask": "action_mask"},
        distribution_class=MaskedCategorical,
        spec=env.action_spec,
        return_log_prob=True,
    )
    critic = ValueOperator(mlp(n_obs, 1), in_keys=["observation"])
    return actor, critic


def train(args: argparse.Namespace) -> dict[str, float]:
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    env = make_env(args.level, args.reward)
    env.set_seed(args.seed)
    actor, critic = build(env)
    collector = Collector(
        lambda: make_env(args.level, args.reward),
        actor,
        frames_per_batch=args.frames_per_batch,
        total_frames=args.total_frames,
    )
    buffer = ReplayBuffer(
        storage=LazyTensorStorage(args.frames_per_batch), sampler=SamplerWithoutReplacement()
    )
    advantage = GAE(gamma=0.995, lmbda=0.95, value_network=critic)
    loss_module = ClipPPOLoss(actor, critic, clip_epsilon=0.2, entropy_coeff=0.01)
    optimizer = torch.optim.Adam(loss_module.parameters(), lr=args.learning_rate)
    games, scores = 0, []
    for batch_number, batch in enumerate(collector, 1):
        finished = batch["next", "done"].squeeze(-1)
        games += int(finished.sum())
        scores += batch["next", "reward"].squeeze(-1)[finished].tolist()
        for _ in range(args.epochs):
            with torch.no_grad():
                advantage(batch)
            buffer.extend(batch.reshape(-1))
            for _ in range(args.frames_per_batch // args.minibatch):
                losses = loss_module(buffer.sample(args.minibatch))
                loss = losses["loss_objective"] + losses["loss_critic"] + losses["loss_entropy"]
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(loss_module.parameters(), 0.5)
                optimizer.step()
        collector.update_policy_weights_()
        recent = scores[-100:]
        mean = sum(recent) / len(recent) if recent else float("nan")
        print(f"batch {batch_number}: {games} games, mean final reward (last 100) {mean:.3f}")
    collector.shutdown()
    summary = {"frames": args.total_frames, "games": games}
    summary["mean_reward"] = sum(scores) / len(scores) if scores else float("nan")
    print("summary:", summary)
    return summary


if __name__ == "__main__":
    train(parse_args())

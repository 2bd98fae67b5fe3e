"""Masked PPO on Friday-v0 with RLlib (new API stack).

RLlib masks actions in an RLModule that reads the mask from the observation: the
``ActionMaskingTorchRLModule`` RLlib ships with its examples expects a dict observation
``{"observations": ..., "action_mask": ...}``, which :func:`friday_env.wrappers.for_rllib`
gives (float32 mask). The module adds ``log(mask)`` (clamped) to the logits, so sampling,
log-probabilities and the PPO loss all use the masked distribution.

    python examples/rllib_masked_ppo.py --level 1 --iterations 50

On a Ray cluster, start it first (``ray start --head`` on one node, ``ray start
--address=HEAD:6379`` on the others) and pass ``--address auto`` and ``--env-runners N``.
Needs ``pip install "friday-env[ray]"`` (ray[rllib]; tested with Ray 2.60 and torch 2.13).
"""

from __future__ import annotations

import argparse

import ray
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule
from ray.tune.registry import register_env

ENV_NAME = "friday-rllib"


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    parser.add_argument("--level", type=int, default=1, help="Friday level 1-4")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--iterations", type=int, default=50)
    parser.add_argument("--batch", type=int, default=4000, help="env steps per iteration")
    parser.add_argument("--minibatch", type=int, default=256)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--env-runners", type=int, default=0, help="0: sample in the driver")
    parser.add_argument("--address", help="a running Ray cluster (e.g. auto); default: local")
    parser.add_argument("--num-cpus", type=int, help="CPUs of the local Ray (default: all)")
    parser.add_argument("--reward", default="score", help="Friday-v0 reward: win_loss or score")
    return parser.parse_args(argv)


def make_env(config: dict):
    import friday_env  # each env runner process registers and builds its own env
    from friday_env.wrappers import for_rllib

    # illegal_action="raise": a masking bug stops the run instead of ending games as losses
    return for_rllib(friday_env.FridayEnv(illegal_action="raise", **config))


def build_config(args: argparse.Namespace) -> PPOConfig:
    register_env(ENV_NAME, make_env)
    return (
        PPOConfig()
        .environment(ENV_NAME, env_config={"level": args.level, "reward": args.reward})
        .env_runners(num_env_runners=args.env_runners)
        .rl_module(
            rl_module_spec=RLModuleSpec(
                module_class=ActionMaskingTorchRLModule,
                model_config={"head_fcnet_hiddens": [64, 64], "vf_share_layers": False},
            )
        )
        .training(
            train_batch_size_per_learner=args.batch,
            minibatch_size=args.minibatch,
            num_epochs=args.epochs,
            lr=3e-4,
            gamma=0.995,
            entropy_coeff=0.01,
        )
        .debugging(seed=args.seed)
    )


def train(args: argparse.Namespace) -> dict[str, float]:
    ray.init(
        address=args.address,
        num_cpus=None if args.address else args.num_cpus,
        include_dashboard=False,
        log_to_driver=False,
    )
    try:
        algo = build_config(args).build_algo()
        summary: dict[str, float] = {}
        for iteration in range(1, args.iterations + 1):
            runners = algo.train()["env_runners"]
            summary = {
                "iteration": iteration,
                "env_steps": int(runners.get("num_env_steps_sampled_lifetime", 0)),
                "episodes": int(runners.get("num_episodes_lifetime", 0)),
                "mean_return": float(runners.get("episode_return_mean", float("nan"))),
            }
            print(summary, flush=True)
        algo.stop()
    finally:
        ray.shutdown()
    print("summary:", summary)
    return summary


if __name__ == "__main__":
    train(parse_args())

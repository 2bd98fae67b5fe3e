"""Masked PPO on Friday-v0 in one file, in the style of CleanRL's ``ppo.py``.

The only Friday-specific part is the mask: every step's ``info["action_mask"]`` (one row per
env of the vector env) sets the logits of illegal actions to a large negative number before
sampling, and the same masks are stored with the rollout so the update scores each action
under the distribution it was sampled from.

The envs: Friday-v0's native vector env (``friday_env.vector``), which steps all the games
in one call on the compiled core. It resets a finished game within the same step
(``AutoresetMode.SAME_STEP``), so every returned row is a live game with a legal action; the
final information of a game is in ``info["final_info"]``. ``--vectorization sync`` runs the
same loop on gymnasium's ``SyncVectorEnv`` of single envs (same autoreset, same arrays), and
``--core python`` on the pure-Python engine: ``friday bench`` compares their frames/s.

    python examples/cleanrl_masked_ppo.py --level 1 --total-timesteps 200000

Needs torch (``pip install torch==2.13.0``) and gymnasium >= 1.1.
"""

from __future__ import annotations

import argparse
import time

import gymnasium as gym
import numpy as np
import torch
from torch import nn
from torch.distributions import Categorical

import friday_env  # noqa: F401  (registers Friday-v0)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    parser.add_argument("--level", type=int, default=1, help="Friday level 1-4")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--total-timesteps", type=int, default=200_000)
    parser.add_argument("--num-envs", type=int, default=8)
    parser.add_argument("--num-steps", type=int, default=128, help="steps per env per rollout")
    parser.add_argument("--learning-rate", type=float, default=2.5e-4)
    parser.add_argument("--gamma", type=float, default=0.995)
    parser.add_argument("--gae-lambda", type=float, default=0.95)
    parser.add_argument("--num-minibatches", type=int, default=4)
    parser.add_argument("--update-epochs", type=int, default=4)
    parser.add_argument("--clip-coef", type=float, default=0.2)
    parser.add_argument("--ent-coef", type=float, default=0.01)
    parser.add_argument("--vf-coef", type=float, default=0.5)
    parser.add_argument("--max-grad-norm", type=float, default=0.5)
    parser.add_argument("--reward", default="score", help="Friday-v0 reward: win_loss or score")
    parser.add_argument(
        "--vectorization",
        default="vector_entry_point",
        choices=("vector_entry_point", "sync"),
        help="Friday-v0's native vector env (default) or gymnasium's SyncVectorEnv",
    )
    parser.add_argument("--core", default=None, help="c or python (default: the compiled core)")
    return parser.parse_args(argv)


def make_envs(args: argparse.Namespace) -> gym.vector.VectorEnv:
    """``num_envs`` games of Friday-v0 with same-step autoreset."""
    # illegal_action="raise": a masking bug stops the run instead of ending games as losses
    kwargs = {"level": args.level, "reward": args.reward, "illegal_action": "raise"}
    kwargs["core"] = args.core
    if args.vectorization == "sync":  # the native vector env resets in the same step itself
        kwargs["vector_kwargs"] = {"autoreset_mode": gym.vector.AutoresetMode.SAME_STEP}
    return gym.make_vec("Friday-v0", args.num_envs, vectorization_mode=args.vectorization, **kwargs)


def layer(n_in: int, n_out: int, std: float = np.sqrt(2)) -> nn.Linear:
    linear = nn.Linear(n_in, n_out)
    nn.init.orthogonal_(linear.weight, std)
    nn.init.constant_(linear.bias, 0.0)
    return linear


class Agent(nn.Module):
    def __init__(self, n_obs: int, n_actions: int) -> None:
        super().__init__()
        self.critic = nn.Sequential(
            layer(n_obs, 64), nn.Tanh(), layer(64, 64), nn.Tanh(), layer(64, 1, 1.0)
        )
        self.actor = nn.Sequential(
            layer(n_obs, 64), nn.Tanh(), layer(64, 64), nn.Tanh(), layer(64, n_actions, 0.01)
        )

    def value(self, obs: torch.Tensor) -> torch.Tensor:
        return self.critic(obs).squeeze(-1)

    def policy(self, obs: torch.Tensor, mask: torch.Tensor) -> Categorical:
        """The action distribution with every illegal action's probability zero."""
        logits = self.actor(obs).masked_fill(~mask, -1e8)
        return Categorical(logits=logits)


def train(args: argparse.Namespace) -> dict[str, float]:
    rng_seed = args.seed
    torch.manual_seed(rng_seed)
    torch.set_num_threads(1)  # small nets: more threads only add contention
    envs = make_envs(args)
    n_obs = int(np.prod(envs.single_observation_space.shape))
    n_actions = int(envs.single_action_space.n)
    agent = Agent(n_obs, n_actions)
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5)

    steps, n = args.num_steps, args.num_envs
    obs_buf = torch.zeros((steps, n, n_obs))
    mask_buf = torch.zeros((steps, n, n_actions), dtype=torch.bool)
    act_buf = torch.zeros((steps, n), dtype=torch.long)
    logp_buf, rew_buf, done_buf, val_buf = (torch.zeros((steps, n)) for _ in range(4))

    obs_np, info = envs.reset(seed=rng_seed)
    obs = torch.as_tensor(obs_np, dtype=torch.float32)
    mask = torch.as_tensor(info["action_mask"], dtype=torch.bool)
    done = torch.zeros(n)
    scores: list[float] = []
    wins = 0
    iterations = max(1, args.total_timesteps // (steps * n))
    start = time.time()
    for iteration in range(1, iterations + 1):
        for t in range(steps):
            obs_buf[t], mask_buf[t], done_buf[t] = obs, mask, done
            with torch.no_grad():
                dist = agent.policy(obs, mask)
                action = dist.sample()
                logp_buf[t], val_buf[t] = dist.log_prob(action), agent.value(obs)
            act_buf[t] = action
            obs_np, reward, terminated, truncated, info = envs.step(action.numpy())
            rew_buf[t] = torch.as_tensor(reward, dtype=torch.float32)
            done = torch.as_tensor(np.logical_or(terminated, truncated), dtype=torch.float32)
            obs = torch.as_tensor(obs_np, dtype=torch.float32)
            mask = torch.as_tensor(info["action_mask"], dtype=torch.bool)
            for k in np.flatnonzero(terminated):
                final = info["final_info"]
                scores.append(float(final["final_score"][k]))
                wins += int(final["won"][k])

        with torch.no_grad():  # generalized advantage estimation
            advantages = torch.zeros((steps, n))
            last = torch.zeros(n)
            next_value = agent.value(obs)
            for t in reversed(range(steps)):
                following_done = done if t == steps - 1 else done_buf[t + 1]
                following_value = next_value if t == steps - 1 else val_buf[t + 1]
                live = 1.0 - following_done
                delta = rew_buf[t] + args.gamma * following_value * live - val_buf[t]
                last = delta + args.gamma * args.gae_lambda * live * last
                advantages[t] = last
            returns = advantages + val_buf

        b_obs, b_mask = obs_buf.reshape(-1, n_obs), mask_buf.reshape(-1, n_actions)
        b_act, b_logp = act_buf.reshape(-1), logp_buf.reshape(-1)
        b_adv, b_ret = advantages.reshape(-1), returns.reshape(-1)
        batch = steps * n
        minibatch = batch // args.num_minibatches
        for _ in range(args.update_epochs):
            order = torch.randperm(batch)
            for first in range(0, batch, minibatch):
                idx = order[first : first + minibatch]
                dist = agent.policy(b_obs[idx], b_mask[idx])
                ratio = (dist.log_prob(b_act[idx]) - b_logp[idx]).exp()
                adv = b_adv[idx]
                adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                clipped = ratio.clamp(1 - args.clip_coef, 1 + args.clip_coef)
                pg_loss = torch.max(-adv * ratio, -adv * clipped).mean()
                v_loss = 0.5 * ((agent.value(b_obs[idx]) - b_ret[idx]) ** 2).mean()
                loss = pg_loss + args.vf_coef * v_loss - args.ent_coef * dist.entropy().mean()
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                optimizer.step()
        recent = scores[-100:]
        print(
            f"iteration {iteration}/{iterations}: {iteration * batch} steps, "
            f"{len(scores)} games, mean score (last 100) "
            f"{np.mean(recent) if recent else float('nan'):.1f}, "
            f"{iteration * batch / (time.time() - start):.0f} steps/s",
            flush=True,
        )
    envs.close()
    summary = {"steps": iterations * steps * n, "games": len(scores), "wins": wins}
    summary["frames_per_s"] = summary["steps"] / (time.time() - start)
    summary["mean_score"] = float(np.mean(scores)) if scores else float("nan")
    print("summary:", summary)
    return summary


if __name__ == "__main__":
    train(parse_args())

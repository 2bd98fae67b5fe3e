"""``friday rl``'s update: generalized advantage estimation over a rollout, then ``epochs``
passes of clipped PPO over shuffled minibatches (``docs/rl.md`` explains the method).

During the critic warm-up only the value loss is minimised and the actor is not touched. After
it the loss adds ``kl_coef * KL(start || policy)`` on the batch states (measured, without a
gradient, when ``kl_coef`` is 0)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import torch
from torch import nn

from friday_agents.learning.networks import ActorCritic
from friday_agents.learning.rl.bookkeeping import CpuParts
from friday_agents.learning.rl.config import RLConfig
from friday_agents.learning.rl.loss import Coefficients, ppo_loss
from friday_agents.learning.rl.rollout import Rollout
from friday_agents.learning.sparse import (
    Store,
    actor_critic,
    legal_ids,
    log_softmax_rows,
    policy_logits,
    values,
)


def adam(model: ActorCritic, learning_rate: float) -> torch.optim.Adam:
    """The trainer's Adam, fused: one kernel for every parameter instead of a dozen torch
    calls per parameter tensor (a fifth of the optimiser's time at these sizes)."""
    return torch.optim.Adam(model.parameters(), lr=learning_rate, eps=1e-5, fused=True)


def gae(
    rollout: Rollout, next_value: torch.Tensor, next_done: torch.Tensor, gamma: float, lam: float
) -> tuple[torch.Tensor, torch.Tensor]:
    """Generalized advantage estimates and the returns the critic is fitted to."""
    rewards, values, dones = rollout["reward"], rollout["value"], rollout["done"]
    steps = (rewards, values, dones, next_value, next_done)
    if rewards.is_cpu:  # the same float32 operations on numpy views: a tenth of the cost
        advantages = torch.from_numpy(_advantages([x.numpy() for x in steps], gamma, lam))
    else:
        advantages = _advantages(list(steps), gamma, lam)
    return advantages, advantages + values


def _advantages(steps: list[Any], gamma: float, lam: float) -> Any:
    """`gae`'s advantages over arrays or tensors alike: ``steps`` holds the rewards, values
    and done flags (steps x envs), then the value and done flags after the last step."""
    rewards, values, dones, next_value, next_done = steps
    zeros_like = torch.zeros_like if isinstance(rewards, torch.Tensor) else np.zeros_like
    advantages, last = zeros_like(rewards), zeros_like(next_value)
    last_step = len(rewards) - 1
    for t in reversed(range(last_step + 1)):
        following_done = next_done if t == last_step else dones[t + 1]
        following_value = next_value if t == last_step else values[t + 1]
        live = 1.0 - following_done
        delta = rewards[t] + gamma * following_value * live - values[t]
        last = delta + gamma * lam * live * last
        advantages[t] = last
    return advantages


class PPO:
    """The networks being trained (``model``), the start policy the KL term measures against
    (``reference``, an actor) and their optimiser, updated from rollouts whose observations
    are in ``rows``. Minibatches are shuffled by ``generator``; ``average_gradients`` is the
    data-parallel run's averaging over processes (a no-op for one), timed as ``cpu``'s
    ``communication``."""

    def __init__(
        self,
        config: RLConfig,
        model: ActorCritic,
        reference: nn.Sequential,
        optimizer: torch.optim.Adam,
        rows: Store,
        generator: torch.Generator,
        average_gradients: Callable[[list[nn.Parameter]], None],
        cpu: CpuParts,
    ) -> None:
        self.config, self.model, self.reference = config, model, reference
        self.optimizer, self.rows, self.generator = optimizer, rows, generator
        self.average_gradients, self.cpu = average_gradients, cpu
        self.batch = config.num_envs * config.num_steps

    @property
    def device(self) -> torch.device:
        return next(self.model.parameters()).device

    def advantages(self, rollout: Rollout) -> None:
        """The rollout's ``advantage`` and ``return``, bootstrapped from the critic's values
        of the observations after its last step."""
        with torch.no_grad():
            next_value = values(self.model.critic, self.rows, rollout.last_rows)
            rollout["advantage"], rollout["return"] = gae(
                rollout, next_value, rollout.last_done, self.config.gamma, self.config.gae_lambda
            )

    def update(self, rollout: Rollout, warmup: bool, kl_coef: float) -> dict[str, float]:
        """The update from ``rollout`` (its advantages first): the mean of each loss term
        over the minibatches."""
        self.advantages(rollout)
        # what the loss reads, one row per frame (the observations are read from self.rows,
        # where a rollout row is its flat index)
        flat = {
            key: rollout[key].reshape(self.batch) for key in ("logp", "advantage", "return", "slot")
        }
        flat["ids"] = legal_ids(rollout["mask"].reshape(self.batch, -1))
        if not warmup:
            every = torch.arange(self.batch, device=self.device)
            flat |= self._reference_terms(every, flat["ids"])
        size = self.batch // self.config.minibatches
        sums: dict[str, float] = {}
        count = 0
        for _ in range(self.config.epochs):
            order = torch.randperm(self.batch, generator=self.generator).to(self.device)
            for first in range(0, self.batch, size):
                # the minibatch's rows in ascending order: the same rows (the loss is their
                # mean), read from the sparse rows in memory order (a tenth off the update)
                rows = order[first : first + size].sort().values
                minibatch = {key: value[rows] for key, value in flat.items()}
                parts = self._minibatch_loss({**minibatch, "row": rows}, warmup, kl_coef)
                self._step(parts["loss"])
                for key, value in parts.items():
                    sums[key] = sums.get(key, 0.0) + float(value.detach())
                count += 1
        return {key: value / count for key, value in sums.items()}

    def _step(self, loss: torch.Tensor) -> None:
        """One optimiser step down ``loss``'s gradient (averaged over the processes, its
        norm clipped)."""
        self.optimizer.zero_grad(set_to_none=True)  # the frozen actor keeps no gradient
        loss.backward()
        with self.cpu.part("communication"):
            self.average_gradients(list(self.model.parameters()))
        nn.utils.clip_grad_norm_(self.model.parameters(), self.config.max_grad_norm, foreach=True)
        self.optimizer.step()

    def _reference_terms(self, rows: torch.Tensor, ids: torch.Tensor) -> dict[str, torch.Tensor]:
        """The start policy's probabilities q of the legal actions ``ids`` on the rollout's
        states and each state's sum of q log q: its part of the KL, once per rollout rather
        than per minibatch."""
        with torch.no_grad():
            padding = ids < 0
            log_q = log_softmax_rows(policy_logits(self.reference, self.rows, rows, ids))
            log_q = log_q.masked_fill(padding, 0.0)
            q = log_q.exp().masked_fill(padding, 0.0)
            return {"reference_q": q, "reference_q_log_q": (q * log_q).sum(-1)}

    def _minibatch_loss(
        self, mb: dict[str, torch.Tensor], warmup: bool, kl_coef: float
    ) -> dict[str, torch.Tensor]:
        config = self.config
        if warmup:  # the actor is frozen: the critic alone
            value = values(self.model.critic, self.rows, mb["row"])
            value_loss = 0.5 * ((value - mb["return"]) ** 2).mean()
            return {"loss": value_loss, "value_loss": value_loss}
        logits, value = actor_critic(self.model, self.rows, mb["row"], mb["ids"])
        # the clipped policy loss, the value loss, the entropy bonus and KL(start || policy)
        # over the legal actions' slots, as one graph node (`ppo_loss`; the KL is only
        # measured, without a gradient, when kl_coef is 0)
        weights = Coefficients(config.clip, config.vf_coef, config.ent_coef, kl_coef)
        return ppo_loss(logits, value, mb, weights)

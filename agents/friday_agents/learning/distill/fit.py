"""Fit a round's policy-and-value network (torch; the result is numpy arrays).

- **Policy**: a tanh network, one logit per action id, fitted by cross-entropy to the soft
  targets ``softmax(q / tau)`` over the actions the search tried. The softmax runs over
  every *legal* action, so actions the search did not try (the network's own low-rated
  ones) are pushed down too: the network plays on its own, and must not prefer an action
  nobody valued.
- **Value**: a separate tanh network fitted by squared error to the outcome of the game the
  state belongs to (+1 a win, -1 a loss): a critic to start reinforcement learning from.

Games are split by deal: ``held_out_share`` of the deals are kept out, and the report gives
on them how often the network's top legal action is the search's best, the cross-entropy,
and the value's error, per level.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from friday_agents.learning.distill.dataset import Decisions
from friday_agents.learning.fitting.policy_net_fit import soft_targets
from friday_agents.players.networks.policy_net import PolicyNetwork

BATCH = 512
LEARNING_RATE = 1e-3


def split_by_deal(data: Decisions, share: float, seed: int) -> np.ndarray:
    """A held-out mask over ``data``'s rows: every row of ``share`` of the (level, deal)
    games, drawn with ``seed``."""
    games = data.levels.astype(np.int64) * 10_000_000 + data.deals
    unique = np.unique(games)
    rng = np.random.default_rng(seed)
    held = rng.choice(unique, size=max(1, round(share * len(unique))), replace=False)
    return np.isin(games, held)


def fit_network(
    data: Decisions, hidden: tuple[int, ...], epochs: int, tau: float, seed: int
) -> tuple[PolicyNetwork, dict[str, Any]]:
    """The policy and value networks fitted on ``data`` (see the module docstring), and the
    CPU seconds the fit took."""
    import torch

    from friday_agents.learning.networks import numpy_layers, tanh_mlp

    started = time.process_time()
    torch.manual_seed(seed)
    size, actions = data.obs.shape[1], data.legal.shape[1]
    policy = tanh_mlp((size, *hidden, actions))
    value = tanh_mlp((size, *hidden, 1))
    optimizer = torch.optim.Adam([*policy.parameters(), *value.parameters()], lr=LEARNING_RATE)
    generator = torch.Generator().manual_seed(seed)
    for _ in range(epochs):
        for batch in torch.randperm(len(data), generator=generator).split(BATCH):
            # one batch at a time: the whole data's targets would double its memory
            rows = data.subset(batch.numpy())
            obs = torch.as_tensor(rows.obs.astype(np.float32))
            legal = torch.as_tensor(rows.legal)
            log_probs = torch.log_softmax(policy(obs).masked_fill(~legal, -1e9), dim=1)
            targets = torch.as_tensor(soft_targets(rows, tau))
            policy_loss = -(targets * log_probs).sum(dim=1).mean()
            value_loss = ((value(obs)[:, 0] - torch.as_tensor(rows.outcome)) ** 2).mean()
            optimizer.zero_grad()
            (policy_loss + value_loss).backward()
            optimizer.step()
    network = PolicyNetwork("flat", numpy_layers(policy), numpy_layers(value))
    return network, {"fit_cpu_seconds": round(time.process_time() - started, 1)}


def held_out_report(data: Decisions, network: PolicyNetwork, tau: float) -> dict[str, Any]:
    """Agreement with the search, cross-entropy and value error on ``data``, per level."""
    logits, values = [], []
    for start in range(0, len(data), 4096):
        obs = data.obs[start : start + 4096].astype(np.float32)
        logits.append(network.logits(obs))
        values.append(network.values(obs))
    all_logits = np.where(data.legal, np.concatenate(logits), -np.inf)
    all_values = np.concatenate(values)
    report = {"all": _scores(data, all_logits, all_values, tau, np.ones(len(data), bool))}
    for level in sorted(set(data.levels.tolist())):
        rows = data.levels == level
        report[str(level)] = _scores(data, all_logits, all_values, tau, rows)
    return report


def _scores(data: Decisions, logits, values, tau: float, rows: np.ndarray) -> dict[str, Any]:
    part, logits, values = data.subset(rows), logits[rows], values[rows]
    log_probs = logits - np.logaddexp.reduce(logits, axis=1, keepdims=True)
    targets = soft_targets(part, tau)
    cross_entropy = -(targets * np.where(part.legal, log_probs, 0.0)).sum(axis=1).mean()
    best = np.where(part.tried, part.q, -np.inf).argmax(axis=1)
    return {
        "decisions": len(part),
        "network_picks_search_best": round(float((logits.argmax(axis=1) == best).mean()), 4),
        "cross_entropy": round(float(cross_entropy), 4),
        "value_mse": round(float(((values - part.outcome) ** 2).mean()), 4),
    }

"""Fit a round's policy-and-value network (torch; the result is numpy arrays).

- **Policy**: a tanh network, one logit per action id, fitted by cross-entropy to the soft
  targets ``softmax(q / tau)`` over the actions the search tried. The softmax runs over
  every *legal* action, so actions the search did not try (the network's own low-rated
  ones) are pushed down too: the network plays on its own, and must not prefer an action
  nobody valued.
- **Value**: a separate tanh network fitted by squared error to the outcome of the game the
  state belongs to (+1 a win, -1 a loss): a critic to start reinforcement learning from.

Both start from torch's random initialisation, or with ``warm_start`` from the round's prior
(`warm_start_network`: its policy, and its value head where it has one): a fit of a few
thousand games from nothing may fall below a strong prior it should improve on.

On the CPU the fit reads the observations' non-zeros only and computes the logits of the
legal actions only (the sparse kernel of
[`friday_agents.learning.sparse`][friday_agents.learning.sparse], about a third of the dense
fit's CPU); on a GPU, or without the kernel, a batch is made dense. Both compute the
same losses up to float rounding.

Games are split by deal: ``held_out_share`` of the deals are kept out, and the report gives
on them how often the network's top legal action is the search's best, the cross-entropy,
and the value's error, per level.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from friday_agents.harness.files import read_model_file
from friday_agents.learning.distill.dataset import Decisions
from friday_agents.learning.fitting.policy_net_fit import soft_targets
from friday_agents.models import model_file
from friday_agents.players.networks.layers import Layers
from friday_agents.players.networks.policy_net import PolicyNetwork, load_policy_network
from friday_env.actions import NUM_ACTIONS
from friday_env.observation import FLAT_SIZE

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
    data: Decisions,
    hidden: tuple[int, ...],
    epochs: int,
    tau: float,
    seed: int,
    device: str = "cpu",
    start: PolicyNetwork | None = None,
) -> tuple[PolicyNetwork, dict[str, Any]]:
    """The policy and value networks fitted on ``data`` (see the module docstring) on the
    torch ``device`` (``cpu`` or ``cuda``), and the CPU seconds the fit took; from the
    weights of ``start`` where given (of ``hidden``'s shape: `warm_start_network`)."""
    import torch

    from friday_agents.learning.networks import copy_layers, numpy_layers, tanh_mlp
    from friday_agents.learning.sparse import kernel_built

    # Small layers: a second thread only adds contention (on a busy 2-core machine it took
    # several times the CPU), and one thread gives the same floats wherever the fit runs.
    torch.set_num_threads(1)
    started = time.process_time()
    torch.manual_seed(seed)
    # both drawn as a cold fit draws them: a start without a value head leaves the value
    # network the one the same seed fits from nothing
    policy = tanh_mlp((FLAT_SIZE, *hidden, NUM_ACTIONS))
    value = tanh_mlp((FLAT_SIZE, *hidden, 1))
    if start is not None:
        copy_layers(policy, start.layers)
        if start.value_layers:
            copy_layers(value, start.value_layers)
    policy, value = policy.to(device), value.to(device)
    optimizer = torch.optim.Adam([*policy.parameters(), *value.parameters()], lr=LEARNING_RATE)
    generator = torch.Generator().manual_seed(seed)
    sparse = device == "cpu" and kernel_built()
    losses = _sparse_losses if sparse else _dense_losses
    for _ in range(epochs):
        for batch in torch.randperm(len(data), generator=generator).split(BATCH):
            policy_loss, value_loss = losses(policy, value, data, batch.numpy(), tau, device)
            optimizer.zero_grad()
            (policy_loss + value_loss).backward()
            optimizer.step()
    network = PolicyNetwork("flat", numpy_layers(policy), numpy_layers(value))
    return network, {
        "fit_cpu_seconds": round(time.process_time() - started, 1),
        "fit_device": device,
        "fit_first_layer": "sparse" if sparse else "dense",
    }


def warm_start_network(prior: str, hidden: tuple[int, ...]) -> PolicyNetwork:
    """The network ``prior`` (a model role or an ``.npz`` file) that a warm-started fit of
    ``hidden`` starts from; ValueError naming both shapes unless the prior has the fit's:
    the flat observation, ``hidden`` and one logit per action (a value head, where it has
    one, of ``hidden`` too)."""
    network = read_model_file(load_policy_network, model_file(prior, "prior"), "the prior")
    wanted = (FLAT_SIZE, *hidden, NUM_ACTIONS)
    shape, value = _sizes(network.layers), _sizes(network.value_layers)
    if network.observation != "flat" or shape != wanted or value not in ((), (*wanted[:-1], 1)):
        has = f"{network.observation} {_shape_text(shape)}"
        has += f" with value head {_shape_text(value)}" if value else ""
        raise ValueError(
            f"warm_start needs the prior to have the fit's shape, flat {_shape_text(wanted)} "
            f"(hidden {','.join(map(str, hidden))}); {prior} is {has}"
        )
    return network


def _sizes(layers: Layers) -> tuple[int, ...]:
    """Input size, then each layer's output size (empty for no layers)."""
    return (layers[0][0].shape[0], *(w.shape[1] for w, _ in layers)) if layers else ()


def _shape_text(sizes: tuple[int, ...]) -> str:
    return "-".join(map(str, sizes))


def _dense_losses(policy, value, data: Decisions, batch: np.ndarray, tau: float, device: str):
    """The batch's policy and value losses on dense rows (a GPU, or no sparse kernel): the
    whole data set stays sparse, a batch is made dense."""
    import torch

    rows = data.batch(batch)
    obs = torch.as_tensor(rows.obs).to(device)
    legal = torch.as_tensor(rows.legal).to(device)
    log_probs = torch.log_softmax(policy(obs).masked_fill(~legal, -1e9), dim=1)
    targets = torch.as_tensor(soft_targets(rows.tried, rows.q, tau)).to(device)
    outcome = torch.as_tensor(rows.outcome).to(device)
    policy_loss = -(targets * log_probs).sum(dim=1).mean()
    return policy_loss, ((value(obs)[:, 0] - outcome) ** 2).mean()


def _sparse_losses(policy, value, data: Decisions, batch: np.ndarray, tau: float, _device: str):
    """The same losses on the CPU, over the observations' non-zeros and the legal actions
    only ([`friday_agents.learning.sparse`][friday_agents.learning.sparse]: the first layers by
    the sparse kernel, the
    policy's logits of the legal actions alone): the same function up to float rounding."""
    import torch

    from friday_agents.learning.sparse import SparseRows, policy_logits, values

    part = data.subset(batch)
    store = SparseRows.from_csr(part.obs_ptr, part.obs_index, part.obs_value)
    rows = torch.arange(len(part))
    ids, tried, q = part.legal_lists()
    log_probs = torch.log_softmax(policy_logits(policy, store, rows, torch.from_numpy(ids)), 1)
    targets = torch.from_numpy(soft_targets(tried, q, tau))
    outcome = torch.from_numpy(part.outcome)
    policy_loss = -(targets * log_probs).sum(dim=1).mean()
    return policy_loss, ((values(value, store, rows) - outcome) ** 2).mean()


def held_out_report(data: Decisions, network: PolicyNetwork, tau: float) -> dict[str, Any]:
    """Agreement with the search, cross-entropy and value error on ``data``, per level
    (computed a chunk of rows at a time: the held-out share of millions of decisions would
    not fit in memory as dense rows)."""
    picks, cross_entropy, squared = [], [], []
    for start in range(0, len(data), 4096):
        rows = data.batch(np.arange(start, min(start + 4096, len(data))))
        logits = np.where(rows.legal, network.logits(rows.obs), -np.inf)
        log_probs = logits - np.logaddexp.reduce(logits, axis=1, keepdims=True)
        targets = soft_targets(rows.tried, rows.q, tau)
        cross_entropy.append(-(targets * np.where(rows.legal, log_probs, 0.0)).sum(axis=1))
        best = np.where(rows.tried, rows.q, -np.inf).argmax(axis=1)
        picks.append(logits.argmax(axis=1) == best)
        squared.append((network.values(rows.obs) - rows.outcome) ** 2)
    scores = np.concatenate(picks), np.concatenate(cross_entropy), np.concatenate(squared)
    report = {"all": _scores(*scores, np.ones(len(data), bool))}
    for level in sorted(set(data.levels.tolist())):
        report[str(level)] = _scores(*scores, data.levels == level)
    return report


def _scores(picks, cross_entropy, squared, rows: np.ndarray) -> dict[str, Any]:
    return {
        "decisions": int(rows.sum()),
        "network_picks_search_best": round(float(picks[rows].mean()), 4),
        "cross_entropy": round(float(cross_entropy[rows].mean()), 4),
        "value_mse": round(float(squared[rows].mean()), 4),
    }

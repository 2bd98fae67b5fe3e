"""Fit the leaf network of the probability of winning (``friday value fit``, on ``--device``).

Inputs are `friday_agents.players.networks.leaf_net.inputs_from_rows` of the positions' feature
rows, standardised by the training positions' mean and deviation; the target is the win (0/1),
the loss binary cross-entropy. Adam, mini-batches; after every epoch the log-loss on the
**validation positions** (played on validation deals, never fitted on) is measured, and the
network of the best epoch is kept: training stops when ``patience`` epochs in a row bring no
better one. The report gives, per epoch and per step, the log-loss and Brier score next to the
constant predictor's (the base rate), so a fit that learnt nothing shows.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from friday_agents.players.networks.leaf_net import LeafNetwork, inputs_from_rows
from friday_env.engine import STEP_NAMES

BATCH = 512
LEARNING_RATE = 1e-3
#: Probabilities are clipped this far from 0 and 1 when scoring: a log-loss stays finite.
CLIP = 1e-6


def model_inputs(data: dict[str, np.ndarray], level: int | None) -> tuple[np.ndarray, np.ndarray]:
    """Raw inputs and 0/1 targets of the positions of ``level`` (every level when None)."""
    keep = np.ones(len(data["won"]), bool) if level is None else data["levels"] == level
    x = inputs_from_rows(data["rows"][keep], data["levels"][keep], data["steps"][keep])
    return x, data["won"][keep].astype(np.float64)


def scores(p: np.ndarray, y: np.ndarray) -> dict[str, float]:
    """Log-loss and Brier score of probabilities ``p`` for outcomes ``y``."""
    q = np.clip(p, CLIP, 1 - CLIP)
    log_loss = -np.mean(y * np.log(q) + (1 - y) * np.log(1 - q))
    return {"log_loss": round(float(log_loss), 5), "brier": round(float(np.mean((p - y) ** 2)), 5)}


def fit_leaf_network(
    train: tuple[np.ndarray, np.ndarray],
    validation: tuple[np.ndarray, np.ndarray],
    hidden: tuple[int, ...],
    max_epochs: int,
    patience: int,
    seed: int,
    progress: Any = None,
    device: str = "cpu",
) -> tuple[LeafNetwork, dict[str, Any]]:
    """The network of the best validation epoch, and the fit's per-epoch record; torch
    learns on ``device`` (``"cpu"`` or ``"cuda"``), the validation is scored in numpy."""
    import torch

    from friday_agents.learning.networks import numpy_layers, tanh_mlp

    started = time.process_time()
    torch.manual_seed(seed)
    torch.set_num_threads(1)  # the same floats on any machine, and the other core stays free
    x, y = train
    centre, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale == 0] = 1.0
    inputs = torch.tensor((x - centre) / scale, dtype=torch.float32, device=device)
    target = torch.tensor(y, dtype=torch.float32, device=device)[:, None]
    model = tanh_mlp((x.shape[1], *hidden, 1)).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=LEARNING_RATE)
    generator = torch.Generator().manual_seed(seed)  # on the CPU: one order on any device
    loss = torch.nn.BCEWithLogitsLoss()
    epochs: list[dict[str, Any]] = []
    best, best_layers = np.inf, None
    for epoch in range(1, max_epochs + 1):
        model.train()
        for batch in torch.randperm(len(inputs), generator=generator).to(device).split(BATCH):
            optimizer.zero_grad()
            loss(model(inputs[batch]), target[batch]).backward()
            optimizer.step()
        layers = tuple((w.astype(np.float64), b.astype(np.float64)) for w, b in numpy_layers(model))
        network = LeafNetwork(centre, scale, layers)
        validation_scores = scores(network.win_probability(validation[0]), validation[1])
        record = {"epoch": epoch, "validation": validation_scores}
        epochs.append(record)
        if progress is not None:
            progress(record)
        if validation_scores["log_loss"] < best:
            best, best_layers = validation_scores["log_loss"], layers
        elif epoch - _best_epoch(epochs) >= patience:
            break
    if best_layers is None:  # no epoch ran, or every validation loss was NaN
        raise ValueError(f"the leaf fit kept no epoch (max_epochs={max_epochs})")
    chosen = LeafNetwork(centre, scale, best_layers)
    return chosen, {
        "epochs": epochs,
        "best_epoch": _best_epoch(epochs),
        "fit_cpu_seconds": round(time.process_time() - started, 1),
    }


def _best_epoch(epochs: list[dict[str, Any]]) -> int:
    return min(epochs, key=lambda r: r["validation"]["log_loss"])["epoch"]


def held_out_report(
    network: LeafNetwork, x: np.ndarray, y: np.ndarray, base_rate: float
) -> dict[str, Any]:
    """The network's and the constant predictor's scores on ``x``, ``y``: all and per step
    (the step is read from the one-hot inputs)."""
    p = network.win_probability(x)
    constant = np.full(len(y), base_rate)
    step_columns = x[:, -len(STEP_NAMES) :]
    report: dict[str, Any] = {
        "positions": len(y),
        "win_rate": round(float(y.mean()), 4),
        "network": scores(p, y),
        "constant": scores(constant, y),
        "by_step": {},
    }
    for step, name in enumerate(STEP_NAMES):
        rows = step_columns[:, step] == 1.0
        if rows.any():
            report["by_step"][name] = {
                "positions": int(rows.sum()),
                "network": scores(p[rows], y[rows]),
                "constant": scores(constant[rows], y[rows]),
            }
    return report

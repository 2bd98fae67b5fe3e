"""Fit the search agent's value network on its own games:
``friday fit value-net --data GAMES.jsonl --out value_net.npz``.

``GAMES.jsonl`` holds one search game per line, played on training deals
(`friday_agents.learning.fitting.game_data`: an evaluation seed is refused). Each game is
replayed with the engine; every state at a turn's start becomes one example, its inputs
`friday_agents.players.networks.value_net.network_inputs` and its target the game's
final score plus ``--win-bonus`` for a win (the linear model's target). A game whose replay
raises is skipped and counted. One game in ``--holdout`` (by deal) is held out: the printed
report
gives the held-out mean squared error of the network and of the shipped linear model, per
level, so the two are compared on the same states. Training uses torch (the ``rl`` extra);
the written network is plain numpy arrays. Deterministic for the same data and arguments.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from friday_agents.harness.errors import BadInputError
from friday_agents.harness.files import write_text_atomically
from friday_agents.harness.paths import portable_path
from friday_agents.learning.fitting.game_data import ReplayCount, target, turn_start_examples
from friday_agents.learning.fitting.value_fit import DEFAULT_WIN_BONUS
from friday_agents.players.networks.linear_value import load_value_model
from friday_agents.players.networks.value_net import (
    ValueNetwork,
    network_inputs,
    save_value_network,
)


def replay_examples(path: Path, win_bonus: float) -> tuple[dict[str, np.ndarray], int]:
    """Inputs, targets, levels, deal ids and the linear model's values of every turn-start
    state of the games in ``path``; and how many games could not be replayed."""
    linear = load_value_model()
    rows, targets, levels, deals, linear_values = [], [], [], [], []
    count = ReplayCount()
    for game, game_data in turn_start_examples(path, count):
        rows.append(network_inputs(game))
        linear_values.append(linear.value(game))
        targets.append(target(game_data, win_bonus))
        levels.append(game_data["level"])
        deals.append(game_data["seed"])
    data = {
        "inputs": np.array(rows),
        "targets": np.array(targets),
        "levels": np.array(levels),
        "deals": np.array(deals),
        "linear": np.array(linear_values),
    }
    return data, count.skipped


def train(
    x: np.ndarray, y: np.ndarray, hidden: tuple[int, ...], epochs: int, seed: int
) -> ValueNetwork:
    """A tanh MLP fitted by Adam on the squared error of the standardized target."""
    import torch

    from friday_agents.learning.networks import numpy_layers, tanh_mlp

    torch.manual_seed(seed)
    torch.set_num_threads(1)
    centre, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale == 0] = 1.0
    y_centre, y_scale = float(y.mean()), float(y.std()) or 1.0
    inputs = torch.tensor((x - centre) / scale, dtype=torch.float32)
    target = torch.tensor((y - y_centre) / y_scale, dtype=torch.float32)[:, None]
    model = tanh_mlp((x.shape[1], *hidden, 1))
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, weight_decay=1e-5)
    generator = torch.Generator().manual_seed(seed)
    for _ in range(epochs):
        for batch in torch.randperm(len(inputs), generator=generator).split(256):
            optimizer.zero_grad()
            loss = torch.nn.functional.mse_loss(model(inputs[batch]), target[batch])
            loss.backward()
            optimizer.step()
    layers = tuple((w.astype(np.float64), b) for w, b in numpy_layers(model))
    return ValueNetwork(centre, scale, layers, y_centre, y_scale, 0.0)


def held_out_report(data: dict[str, np.ndarray], test: np.ndarray, net: ValueNetwork) -> dict:
    """Held-out mean squared error of the network and the linear model, per level."""
    predicted = net.predict(data["inputs"][test])
    report = {}
    for level in (1, 2, 3, 4):
        mask = data["levels"][test] == level
        y = data["targets"][test][mask]
        report[str(level)] = {
            "states": int(mask.sum()),
            "network_mse": round(float(((predicted[mask] - y) ** 2).mean()), 1),
            "linear_mse": round(float(((data["linear"][test][mask] - y) ** 2).mean()), 1),
            "target_variance": round(float(y.var()), 1),
        }
    return report


@dataclass(frozen=True)
class ValueNetFit:
    """The settings of a value network fit (``friday fit value-net``)."""

    data: Path  # search games, one per line
    out: Path  # where the network goes (.npz)
    report: Path | None = None  # where the held-out errors go too (JSON)
    hidden: tuple[int, ...] = (64, 64)  # hidden layer sizes
    epochs: int = 40
    holdout: int = 10  # hold out the games of 1 deal in this many
    win_bonus: float = DEFAULT_WIN_BONUS  # added to a won game's final score in the target
    seed: int = 0

    def check(self) -> ValueNetFit:
        """These settings, or `BadInputError` naming the first one that cannot be fitted."""
        refusals = {
            f"no such games file: {self.data}": self.data.is_file(),
            "--hidden must be 1 or more sizes of at least 1": bool(self.hidden)
            and min(self.hidden) >= 1,
            "--epochs must be at least 1": self.epochs >= 1,
            "--holdout must be at least 2": self.holdout >= 2,
        }
        for message, ok in refusals.items():
            if not ok:
                raise BadInputError(message)
        return self


def fit_value_network(settings: ValueNetFit, say: Callable[[str], None] = print) -> dict:
    """Fit the network, write it (and the report where asked) and return the report; ``say``
    hears the report and the file written."""
    settings.check()
    data, skipped = replay_examples(settings.data, settings.win_bonus)
    test = data["deals"] % settings.holdout == 0
    inputs, targets = data["inputs"][~test], data["targets"][~test]
    net = train(inputs, targets, settings.hidden, settings.epochs, settings.seed)
    net = ValueNetwork(
        net.centre, net.scale, net.layers, net.target_centre, net.target_scale, settings.win_bonus
    )
    report = {
        "data": portable_path(settings.data),  # never an absolute path of this machine
        "games": len(set(data["deals"].tolist())),
        "skipped_games": skipped,
        "train_states": int((~test).sum()),
        "held_out_states": int(test.sum()),
        "hidden": list(settings.hidden),
        "epochs": settings.epochs,
        "win_bonus": settings.win_bonus,
        "held_out": held_out_report(data, test, net),
    }
    save_value_network(net, settings.out)
    say(json.dumps(report, indent=1))
    if settings.report:
        write_text_atomically(settings.report, json.dumps(report, indent=1) + "\n")
    say(f"wrote {settings.out}")
    return report


if __name__ == "__main__":  # the command moved into `friday`: say where, run nothing
    import sys

    sys.exit(f"python -m {__spec__.name}: error: gone: it is now `friday fit value-net`")

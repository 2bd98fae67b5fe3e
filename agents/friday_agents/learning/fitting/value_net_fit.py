"""Fit the search agent's value network on its own games:
``python -m friday_agents.learning.fitting.value_net_fit --data GAMES.jsonl --out value_net.npz``.

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

import argparse
import json
import sys
from pathlib import Path

import numpy as np

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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m friday_agents.learning.fitting.value_net_fit",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--data", type=Path, required=True, help="search games, one per line")
    parser.add_argument("--out", type=Path, required=True, help="where the network goes (.npz)")
    parser.add_argument("--report", type=Path, help="write the held-out errors here (JSON)")
    parser.add_argument("--hidden", default="64,64", help="hidden layer sizes (default 64,64)")
    parser.add_argument("--epochs", type=int, default=40)
    parser.add_argument("--holdout", type=int, default=10, help="hold out 1 deal in N")
    parser.add_argument("--win-bonus", type=float, default=DEFAULT_WIN_BONUS)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    data, skipped = replay_examples(args.data, args.win_bonus)
    test = data["deals"] % args.holdout == 0
    hidden = tuple(int(h) for h in args.hidden.split(","))
    net = train(data["inputs"][~test], data["targets"][~test], hidden, args.epochs, args.seed)
    net = ValueNetwork(
        net.centre, net.scale, net.layers, net.target_centre, net.target_scale, args.win_bonus
    )
    report = {
        "data": str(args.data),
        "games": len(set(data["deals"].tolist())),
        "skipped_games": skipped,
        "train_states": int((~test).sum()),
        "held_out_states": int(test.sum()),
        "hidden": list(hidden),
        "epochs": args.epochs,
        "win_bonus": args.win_bonus,
        "held_out": held_out_report(data, test, net),
    }
    save_value_network(net, args.out)
    print(json.dumps(report, indent=1))
    if args.report:
        args.report.write_text(json.dumps(report, indent=1) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

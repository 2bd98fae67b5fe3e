"""Fit the search agent's value estimate: ``python -m friday_agents.learning.fitting.value_fit``.

Plays the heuristic on training seeds (below `friday_agents.harness.deals.TRAINING_SEED_LIMIT`,
never the evaluation seeds) — or, with ``--data``, replays recorded games such as the search
agent's own (`friday_agents.learning.fitting.game_data`) — records the public
features of every state at a turn's start
(`friday_agents.players.networks.linear_value.features`) with the score the game
finally reached, and fits one ridge regression per level and step. The weights go to
``--out`` (default: the ``search_value.json`` the search agent loads); the printed R² says
how much of the final score each model explains. Deterministic: the same arguments write the
same file.
"""

from __future__ import annotations

import argparse
import json
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from friday_agents.harness.deals import training_seed
from friday_agents.learning.fitting.game_data import ReplayCount, target, turn_start_examples
from friday_agents.players.heuristic.agent import heuristic_action
from friday_agents.players.networks.linear_value import (
    FEATURE_SETS,
    TURN_START_PHASES,
    WEIGHTS_FILE,
)
from friday_env import Game
from friday_env.engine import STEP_NAMES

#: A lost game's score barely depends on how far Robinson got, so a target of the score
#: alone does not value survival; a bonus for winning does.
DEFAULT_WIN_BONUS = 100.0


def collect(
    level: int, games: int, win_bonus: float, feature_set: str = "basic"
) -> tuple[list[int], np.ndarray, np.ndarray]:
    """Steps, feature rows and targets (final score, plus ``win_bonus`` for a win) of every
    turn-start state of ``games`` heuristic games at ``level``."""
    steps: list[int] = []
    rows: list[np.ndarray] = []
    targets: list[float] = []
    features = FEATURE_SETS[feature_set][1]
    for index in range(games):
        game = Game.new(level, training_seed(level, index))
        visited = []
        while not game.done:
            if game.phase in TURN_START_PHASES:
                visited.append((game.step, features(game)))
            game.apply(heuristic_action(game))
        for step, row in visited:
            steps.append(step)
            rows.append(row)
            targets.append(game.score() + win_bonus * game.won)
    return steps, np.array(rows), np.array(targets)


def collect_replayed(
    paths: list[Path], level: int, win_bonus: float, feature_set: str = "basic"
) -> tuple[list[int], np.ndarray, np.ndarray]:
    """Like `collect`, from the recorded games of ``level`` in the files ``paths`` (see
    `friday_agents.learning.fitting.game_data`) instead of new heuristic games."""
    examples = [
        example for path in paths for example in turn_start_examples(path, ReplayCount(), level)
    ]
    steps = [game.step for game, _ in examples]
    features = FEATURE_SETS[feature_set][1]
    rows = np.array([features(game) for game, _ in examples])
    return steps, rows, np.array([target(data, win_bonus) for _, data in examples])


def ridge_fit(x: np.ndarray, y: np.ndarray, ridge: float) -> np.ndarray:
    """Ridge regression on standardized features (the bias unpenalized), returned as weights
    on the raw features. Standardizing makes one penalty fit every feature's scale and keeps
    nearly collinear counts (hazards left, discarded, won) from trading huge weights."""
    scale = x.std(axis=0)
    scale[0] = 1.0
    scale[scale == 0] = 1.0
    centre = x.mean(axis=0)
    centre[0] = 0.0
    z = (x - centre) / scale
    penalty = ridge * len(y) * np.eye(x.shape[1])
    penalty[0, 0] = 0.0
    w = np.linalg.solve(z.T @ z + penalty, z.T @ y) / scale
    w[0] -= float(centre @ w)
    return w


def r_squared(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> float:
    residual = y - x @ w
    spread = float(((y - y.mean()) ** 2).sum())
    return 1.0 - float((residual**2).sum()) / spread if spread else 0.0


def fit_level(
    level: int,
    games: int,
    ridge: float,
    win_bonus: float,
    data: list[Path] | None = None,
    min_states: int | None = None,
    feature_set: str = "basic",
) -> tuple[dict[str, list[float]], list[str]]:
    if data is None:
        steps, x, y = collect(level, games, win_bonus, feature_set)
    else:
        steps, x, y = collect_replayed(data, level, win_bonus, feature_set)
    if min_states is None:  # twice the features of the set fitted
        min_states = 2 * x.shape[1]
    weights: dict[str, list[float]] = {}
    report = []
    step_of = np.array(steps)
    for step in range(len(STEP_NAMES)):
        chosen = step_of == step
        if chosen.sum() < min_states:
            raise RuntimeError(f"level {level}: too few {STEP_NAMES[step]} states to fit")
        w = ridge_fit(x[chosen], y[chosen], ridge)
        weights[str(step)] = [round(float(v), 6) for v in w]
        r2 = r_squared(x[chosen], y[chosen], w)
        report.append(
            f"level {level} {STEP_NAMES[step]:8} {int(chosen.sum()):6} states  R² {r2:.3f}"
        )
    return weights, report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m friday_agents.learning.fitting.value_fit", description=__doc__
    )
    parser.add_argument("--games", type=int, default=3000, help="heuristic games per level")
    parser.add_argument(
        "--ridge", type=float, default=1e-3, help="L2 penalty per state on standardized features"
    )
    parser.add_argument(
        "--win-bonus",
        type=float,
        default=DEFAULT_WIN_BONUS,
        help="added to the final score of a won game in the target",
    )
    parser.add_argument(
        "--data",
        type=Path,
        nargs="+",
        help="fit on the recorded games of these files (one JSON line each, e.g. the search "
        "agent's) instead of playing --games heuristic games",
    )
    parser.add_argument(
        "--min-states",
        type=int,
        help="fewest states of a level and step to fit on (default: twice the features)",
    )
    parser.add_argument(
        "--features",
        choices=sorted(FEATURE_SETS),
        default="basic",
        help="basic: the public summary (default); cards: it, plus a count per card type "
        "Robinson holds and the pirates he faces",
    )
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--out",
        type=Path,
        required=True,
        help=f"where the weights go (the search agent loads {WEIGHTS_FILE.name} beside its "
        "value module: agents/friday_agents/models/search_value.json in a checkout)",
    )
    args = parser.parse_args(argv)
    levels = [1, 2, 3, 4]
    with ProcessPoolExecutor(args.workers) as pool:
        results = list(
            pool.map(
                fit_level,
                levels,
                [args.games] * 4,
                [args.ridge] * 4,
                [args.win_bonus] * 4,
                [args.data] * 4,
                [args.min_states] * 4,
                [args.features] * 4,
            )
        )
    for _, report in results:
        print("\n".join(report))
    data = {
        "features": list(FEATURE_SETS[args.features][0]),
        "games_per_level": args.games if args.data is None else None,
        "data": None if args.data is None else [str(path) for path in args.data],
        "ridge": args.ridge,
        "win_bonus": args.win_bonus,
        "weights": {str(level): w for level, (w, _) in zip(levels, results, strict=True)},
    }
    args.out.write_text(json.dumps(data, indent=1) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

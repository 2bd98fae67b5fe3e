"""Fit the search agent's linear value estimate: ``friday fit linear-value``.

Plays the heuristic on training seeds (below `friday_agents.harness.deals.TRAINING_SEED_LIMIT`,
never the evaluation seeds) — or, with ``--data``, replays recorded games such as the search
agent's own (`friday_agents.learning.fitting.game_data`) — records the public
features of every state at a turn's start
(`friday_agents.players.networks.linear_value.features`) with the score the game
finally reached, and fits one ridge regression per level and step. The weights go to
``--out`` (the search agent loads ``search_value.json``); the printed R² says how much of the
final score each model explains. Deterministic: the same settings write the same file. From
Python: ``fit_linear_value(LinearValueFit(out=Path("v.json"), games=500))``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from friday_agents.harness.deals import training_seed
from friday_agents.harness.errors import BadInputError
from friday_agents.harness.files import write_text_atomically
from friday_agents.harness.paths import portable_path
from friday_agents.learning.fitting.game_data import ReplayCount, target, turn_start_examples
from friday_agents.players.heuristic.agent import heuristic_action
from friday_agents.players.networks.linear_value import (
    FEATURE_SETS,
    TURN_START_PHASES,
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


@dataclass(frozen=True)
class LinearValueFit:
    """The settings of a linear value fit (``friday fit linear-value``): every level's ridge
    regressions, on ``games`` heuristic games per level or on the recorded games of ``data``."""

    out: Path  # where the weights go
    games: int = 3000  # heuristic games per level (without data)
    ridge: float = 1e-3  # L2 penalty per state on standardized features
    win_bonus: float = DEFAULT_WIN_BONUS  # added to a won game's final score in the target
    data: tuple[Path, ...] | None = None  # recorded games files to fit on instead
    min_states: int | None = None  # fewest states of a level and step (None: twice the features)
    features: str = "basic"  # a FEATURE_SETS name
    workers: int = 2  # processes, one level each

    def check(self) -> LinearValueFit:
        """These settings, or `BadInputError` naming the first one that cannot be fitted."""
        refusals = {
            "--games must be at least 1": self.games >= 1,
            "--ridge must be 0 or more": self.ridge >= 0,
            "--workers must be at least 1": self.workers >= 1,
            "--min-states must be at least 1": self.min_states is None or self.min_states >= 1,
            f"--features must be one of {', '.join(sorted(FEATURE_SETS))}": (
                self.features in FEATURE_SETS
            ),
        }
        for message, ok in refusals.items():
            if not ok:
                raise BadInputError(message)
        return self


def fit_linear_value(settings: LinearValueFit, say: Callable[[str], None] = print) -> dict:
    """Fit every level's models, write them to ``settings.out`` and return what was written;
    ``say`` hears each level and step's R² and the file written."""
    settings.check()
    levels = [1, 2, 3, 4]
    data = None if settings.data is None else list(settings.data)
    with ProcessPoolExecutor(settings.workers) as pool:
        results = list(
            pool.map(
                fit_level,
                levels,
                [settings.games] * 4,
                [settings.ridge] * 4,
                [settings.win_bonus] * 4,
                [data] * 4,
                [settings.min_states] * 4,
                [settings.features] * 4,
            )
        )
    for _, report in results:
        say("\n".join(report))
    written = {
        "features": list(FEATURE_SETS[settings.features][0]),
        "games_per_level": settings.games if data is None else None,
        "data": None if data is None else [portable_path(path) for path in data],
        "ridge": settings.ridge,
        "win_bonus": settings.win_bonus,
        "weights": {str(level): w for level, (w, _) in zip(levels, results, strict=True)},
    }
    write_text_atomically(settings.out, json.dumps(written, indent=1) + "\n")
    say(f"wrote {settings.out}")
    return written


if __name__ == "__main__":  # the command moved into `friday`: say where, run nothing
    import sys

    sys.exit(f"python -m {__spec__.name}: error: gone: it is now `friday fit linear-value`")

"""Measure heuristic settings on training deals: ``python experiments/heuristic-tuning/tune.py``.

Each setting plays ``--games`` games per level on training seeds
(:func:`friday_agents.harness.deals.training_seed`, never an evaluation deal) and prints win rate,
mean score and how often Robinson reached the red step and the pirates. A grid is given as
``name=v1,v2`` pairs over the fields of
:class:`friday_agents.players.heuristic.rules.HeuristicParams`, e.g.::

    python experiments/heuristic-tuning/tune.py future_weight=1,1.5,2 destroy_weight=1,1.5,2

The defaults in ``HeuristicParams`` were chosen this way (1,000 games per level).
"""

from __future__ import annotations

import argparse
import itertools
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import fields

from friday_agents.harness.deals import training_seed
from friday_agents.players.heuristic.agent import heuristic_action
from friday_agents.players.heuristic.rules import HeuristicParams
from friday_env import Game
from friday_env.engine import PIRATES, RED
from friday_env.errors import InvalidLevelError
from friday_env.levels import parse_levels

#: Training deals from this index on (the value fit uses the first ones).
FIRST_INDEX = 300_000


def measure(params: HeuristicParams, level: int, games: int) -> dict[str, float]:
    wins = score = red = pirates = 0
    for index in range(games):
        game = Game.new(level, training_seed(level, FIRST_INDEX + index))
        while not game.done:
            game.apply(heuristic_action(game, params))
        wins += game.won
        score += game.score()
        red += game.step >= RED
        pirates += game.step == PIRATES
    return {
        "win": wins / games,
        "score": score / games,
        "red": red / games,
        "pirates": pirates / games,
    }


def parse_grid(pairs: list[str]) -> list[dict[str, object]]:
    """``["a=1,2", "b=x"]`` -> every combination as keyword arguments of HeuristicParams."""
    types = {f.name: f.type for f in fields(HeuristicParams)}
    axes = []
    for pair in pairs:
        name, sep, values = pair.partition("=")
        if not sep or name not in types:
            raise ValueError(f"{pair!r}: expected name=v1,v2 with a name among {', '.join(types)}")
        convert = (lambda v: v.lower() in ("1", "true")) if types[name] == "bool" else float
        axes.append([(name, convert(v)) for v in values.split(",")])
    return [dict(combo) for combo in itertools.product(*axes)]


def _row(args: tuple[dict, tuple[int, ...], int]) -> str:
    overrides, levels, games = args
    params = HeuristicParams(**overrides)  # type: ignore[arg-type]
    cells = []
    for level in levels:
        m = measure(params, level, games)
        cells.append(
            f"L{level} win {m['win']:.3f} score {m['score']:6.1f} "
            f"red {m['red']:.2f} pirates {m['pirates']:.2f}"
        )
    return f"{overrides or 'defaults'}: " + " | ".join(cells)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        allow_abbrev=False, prog="python experiments/heuristic-tuning/tune.py", description=__doc__
    )
    parser.add_argument("grid", nargs="*", help="name=v1,v2 ... (none: the defaults)")
    parser.add_argument("--games", type=int, default=1000, help="games per level and setting")
    parser.add_argument("--levels", default="1,2,3,4")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    try:
        grid = parse_grid(args.grid)
    except ValueError as err:
        parser.error(str(err))
    try:
        levels = parse_levels(args.levels)
    except InvalidLevelError as err:
        parser.error(str(err))
    with ProcessPoolExecutor(args.workers) as pool:
        for line in pool.map(_row, [(g, levels, args.games) for g in grid]):
            print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

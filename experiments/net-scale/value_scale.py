"""Amendment 9's factor for level 4's action values (PLAN.md):
``python experiments/net-scale/value_scale.py DATA/round-00/teacher.jsonl --out FILE``.

The labelling search values level-4 candidates by the leaf network's probability of winning,
and levels 1-3 by linear models fitted on the final score plus 100 for a win. A probability
``p`` is put in those points as ``p`` times the gap between a won and a lost game: the mean of
``score + 100 * won`` over won level-4 games minus that over lost ones, in round 0's teacher
games (training deals). Also reports, per level, the spread of the values within a decision
(best minus worst candidate) before and after the factor.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

from friday_agents.harness.files import print_and_write_json

WIN_BONUS = 100
SCALED_LEVEL = 4
TAU = 2.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.split("\n\n")[0])
    parser.add_argument("games", type=Path, help="round 0's teacher.jsonl (friday distill)")
    parser.add_argument("--out", type=Path, help="write the result here (JSON)")
    args = parser.parse_args(argv)
    points: dict[tuple[int, bool], list[float]] = defaultdict(list)
    spreads: dict[int, list[float]] = defaultdict(list)
    for line in args.games.read_text().splitlines():
        game = json.loads(line)
        points[(game["level"], game["won"])].append(game["score"] + WIN_BONUS * game["won"])
        for values in game["q"].values():
            q = [value for _, value in values]
            spreads[game["level"]].append(max(q) - min(q))
    gaps = {
        level: float(np.mean(points[(level, True)]) - np.mean(points[(level, False)]))
        for level in sorted({level for level, _ in points})
    }
    factor = round(gaps[SCALED_LEVEL], 1)
    result = {
        "what": "level 4's factor: mean (score + 100 x won) of won minus lost level-4 games of "
        "round 0's teacher games; per level, the mean spread of a decision's values and the "
        f"mean top probability of two candidates that far apart at tau {TAU}",
        "games": str(args.games),
        "won_minus_lost_points": {level: round(gap, 1) for level, gap in gaps.items()},
        "value_scale": [1.0, 1.0, 1.0, factor],
        "mean_spread": {},
        "mean_top_probability_two_candidates": {},
    }
    for level, values in sorted(spreads.items()):
        spread = np.asarray(values) * (factor if level == SCALED_LEVEL else 1.0)
        result["mean_spread"][level] = {
            "unscaled": round(float(np.mean(values)), 3),
            "scaled": round(float(spread.mean()), 3),
        }
        result["mean_top_probability_two_candidates"][level] = {
            "unscaled": round(float(np.mean(1 / (1 + np.exp(-np.asarray(values) / TAU)))), 3),
            "scaled": round(float(np.mean(1 / (1 + np.exp(-spread / TAU)))), 3),
        }
    print_and_write_json(result, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())

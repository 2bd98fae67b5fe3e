"""CPU per level-4 game of each candidate (PLAN.md, "Measurements"):
``python experiments/level4-breadth/cost.py --out experiments/level4-breadth/results/cost.json``.

Each candidate plays level-4 validation deals 0 to ``--deals`` - 1 in this one process, the
candidates taking turns deal by deal, and each game's CPU time is `time.process_time()`: the
machine's other work falls on every candidate alike. Reports the mean CPU seconds per game and
its ratio to today's ``guided``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from friday_agents.harness.deals import training_seed, validation_seed
from friday_agents.players.base import play_game
from friday_agents.players.registry import make_agent

HERE = Path(__file__).resolve().parent
#: The plan's candidates, today's default first (the ratios are to it).
CANDIDATES = (
    "guided",
    "guided:top=2",
    "guided:top=3",
    "guided:sims=16:top=2",
    "guided:sims=64:top=2",
)
LEVEL = 4


def cpu_seconds(agent, index: int) -> float:
    started = time.process_time()
    play_game(agent, LEVEL, validation_seed(LEVEL, index))
    return time.process_time() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=50, help="validation deals 0..N-1 of level 4")
    parser.add_argument("--out", type=Path, help="write the result here (JSON)")
    args = parser.parse_args(argv)
    agents = {spec: make_agent(spec) for spec in CANDIDATES}
    for agent in agents.values():  # untimed: the models load and the caches warm up
        play_game(agent, LEVEL, training_seed(LEVEL, 0))
    seconds: dict[str, list[float]] = {spec: [] for spec in CANDIDATES}
    for index in range(args.deals):
        for spec, agent in agents.items():
            seconds[spec].append(cpu_seconds(agent, index))
        print(f"deal {index + 1}/{args.deals}", file=sys.stderr, end="\r")
    means = {spec: float(np.mean(values)) for spec, values in seconds.items()}
    reference = means[CANDIDATES[0]]
    result = {
        "what": f"CPU seconds per game (time.process_time) on level-4 validation deals "
        f"0-{args.deals - 1}, the candidates taking turns deal by deal in one process",
        "deals": args.deals,
        "cpu_seconds_per_game": {spec: round(mean, 4) for spec, mean in means.items()},
        "ratio_to_guided": {spec: round(mean / reference, 3) for spec, mean in means.items()},
    }
    print(json.dumps(result, indent=1))
    if args.out:
        args.out.write_text(json.dumps(result, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

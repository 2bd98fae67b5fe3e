"""CPU per game of each candidate (PLAN.md, "Measurements"; amendment 2 for levels 1-3):
``python experiments/level4-breadth/cost.py --out experiments/level4-breadth/results/cost.json``
(level 4), ``... cost.py --level 2 --out .../results/cost-level2.json`` (levels 1-3).

Each candidate plays validation deals 0 to ``--deals`` - 1 of the level in this one process, the
candidates taking turns deal by deal, and each game's CPU time is `time.process_time()`: the
machine's other work falls on every candidate alike. Reports the mean CPU seconds per game and
its ratio to the first candidate's (``guided`` with one candidate).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

from friday_agents.harness.deals import training_seed, validation_seed
from friday_agents.harness.files import print_and_write_json
from friday_agents.players.base import play_game
from friday_agents.players.registry import make_agent
from friday_agents.players.resolved import resolve_specs

HERE = Path(__file__).resolve().parent
#: The plan's level-4 candidates, guided as it was first (the ratios are to it). The committed
#: runs name the first bare ``guided``: guided's default then, ``top=1`` (the study then made
#: ``top=3`` guided's level-4 default).
CANDIDATES = (
    "guided:top=1",
    "guided:top=2",
    "guided:top=3",
    "guided:sims=16:top=2",
    "guided:sims=64:top=2",
)
#: Amendment 2's candidates on levels 1-3.
CANDIDATES_LEVELS_1_3 = ("guided:top=1", "guided:top=2", "guided:top=3")


def candidates(level: int) -> tuple[str, ...]:
    return CANDIDATES if level == 4 else CANDIDATES_LEVELS_1_3


def cpu_seconds(agent, level: int, index: int) -> float:
    started = time.process_time()
    play_game(agent, level, validation_seed(level, index))
    return time.process_time() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", type=int, default=4, choices=(1, 2, 3, 4), help="the level")
    parser.add_argument("--deals", type=int, default=50, help="validation deals 0..N-1")
    parser.add_argument("--out", type=Path, help="write the result here (JSON)")
    args = parser.parse_args(argv)
    level, specs = args.level, candidates(args.level)
    agents = {spec: make_agent(spec) for spec in specs}
    for agent in agents.values():  # untimed: the models load and the caches warm up
        play_game(agent, level, training_seed(level, 0))
    seconds: dict[str, list[float]] = {spec: [] for spec in specs}
    for index in range(args.deals):
        for spec, agent in agents.items():
            seconds[spec].append(cpu_seconds(agent, level, index))
        print(f"deal {index + 1}/{args.deals}", file=sys.stderr, end="\r")
    means = {spec: float(np.mean(values)) for spec, values in seconds.items()}
    reference = means[specs[0]]
    result = {
        "what": f"CPU seconds per game (time.process_time) on level-{level} validation deals "
        f"0-{args.deals - 1}, the candidates taking turns deal by deal in one process",
        "level": level,
        "deals": args.deals,
        "cpu_seconds_per_game": {spec: round(mean, 4) for spec, mean in means.items()},
        "ratio_to_guided": {spec: round(mean / reference, 3) for spec, mean in means.items()},
        "resolved": resolve_specs(specs),  # what each spec played, whole
    }
    print_and_write_json(result, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())

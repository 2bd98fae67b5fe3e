"""The memory of the evaluation report's score intervals, by the number of games.

``friday eval`` gives each agent and level a mean and a median score with 95 % bootstrap
intervals (2,000 resamples, ``friday_agents.harness.stats.bootstrap_interval``). Drawn all at
once, the resamples held 31 KB per game (916 MB at 30,000 games); drawn in blocks of rows,
the peak stays a few MB (3.8 MB at 120,000 games). This script measures the peak that
``tracemalloc`` sees (numpy reports its arrays to it) for each number of games, and the CPU
seconds it took::

    python benchmarks/bootstrap_memory.py                 # 1,000 / 10,000 / 120,000 games
    python benchmarks/bootstrap_memory.py --games 500000
"""

from __future__ import annotations

import argparse
import time
import tracemalloc

import numpy as np

from friday_agents.harness.stats import bootstrap_interval


def measure(games: int, seed: int = 0) -> dict[str, float]:
    """Peak traced MB and CPU seconds of the report's two intervals over ``games`` scores
    (integers as game scores are, spread like a weak agent's)."""
    scores = np.random.default_rng(seed).integers(-25, 45, size=games).astype(float)
    tracemalloc.start()
    started = time.process_time()
    try:
        for statistic in ("mean", "median"):
            bootstrap_interval(scores, statistic, seed=seed)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    seconds = time.process_time() - started
    return {"games": games, "peak_mb": peak / 2**20, "kb_per_game": peak / 1024 / games,
            "cpu_seconds": seconds}  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python benchmarks/bootstrap_memory.py",
        description=__doc__.splitlines()[0],
        allow_abbrev=False,
    )
    parser.add_argument(
        "--games", type=int, nargs="+", default=[1_000, 10_000, 120_000], help="game counts"
    )
    args = parser.parse_args(argv)
    print(f"{'games':>9} {'peak MB':>9} {'KB/game':>9} {'CPU s':>7}")
    for games in args.games:
        row = measure(games)
        print(f"{games:>9,} {row['peak_mb']:>9.1f} {row['kb_per_game']:>9.2f} "
              f"{row['cpu_seconds']:>7.1f}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Games per CPU second of each agent on the compiled core: the speed columns of the docs.

    python benchmarks/agent_speeds.py --out benchmarks/agent_speeds.json

Each agent plays the first evaluation deals of every level in this process, as one worker of
``friday eval`` plays them (the agent built once and warmed up on one untimed game, then
``runner.play_task`` per deal), with
the search agents at ``friday eval``'s full-table budget (``--search-sims 32``); each game is
timed on this process's CPU time, which other jobs on a shared machine slow down far less
than the wall clock. The levels take turns deal by deal. The docs' tables of games/s
(``docs/agents.md``, ``docs/results.md``) are rendered from the file by
``tools/sections/bench.py``.
"""

from __future__ import annotations

import datetime
import os
import platform
import time
from typing import Any

from bench_cluster import workload_main

#: Agent spec -> deals per level: a few seconds of CPU per agent and level.
DEFAULT_GAMES = {
    "random": 1000,
    "heuristic": 400,
    "ppo": 40,
    "net": 100,
    "search": 20,
    "guided": 20,
    "oracle": 20,
}
LEVELS = (1, 2, 3, 4)
SEARCH_SIMS = 32


def measure(spec: str, games: int) -> list[dict[str, Any]]:
    """One row per level: ``spec``'s games per CPU second over its first ``games`` deals."""
    from friday_agents.evaluation import runner
    from friday_agents.evaluation.runner import EvalConfig, Task

    config = EvalConfig(agents=(spec,), levels=LEVELS, games={spec: games}, search_sims=SEARCH_SIMS)
    runner.prepare_worker(config)  # the agent built (networks loaded) before any clock
    runner.play_task(Task(spec, LEVELS[0], 0))  # a warm-up game: first calls, caches
    seconds = dict.fromkeys(LEVELS, 0.0)
    for index in range(games):
        for level in LEVELS:
            start = time.process_time()
            runner.play_task(Task(spec, level, index))
            seconds[level] += time.process_time() - start
    return [
        {"agent": spec, "level": level, "games": games, "cpu_seconds": seconds[level],
         "games_per_s": games / seconds[level]}
        for level in LEVELS
    ]  # fmt: skip


def run_all(workloads: dict[str, int], note: str) -> dict[str, Any]:
    from friday_agents.players.resolved import resolve_specs
    from friday_env.core import default_core

    load_start = os.getloadavg()[0]
    rows = []
    for spec, games in workloads.items():
        print(f"{spec}: {games} deals per level", flush=True)
        rows += measure(spec, games)
        print("  " + ", ".join(f"level {r['level']} {r['games_per_s']:.1f} games/s"
                               for r in rows[-len(LEVELS):]), flush=True)  # fmt: skip
    return {
        "command": "python benchmarks/agent_speeds.py --out benchmarks/agent_speeds.json",
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "core": default_core(),
        "search_sims": SEARCH_SIMS,
        "timing": "CPU time of this process per game (time.process_time)",
        "machine": f"{platform.processor() or platform.machine()}, {os.cpu_count()} logical cores",
        "python": platform.python_version(),
        "load_average": {"start": load_start, "end": os.getloadavg()[0]},
        "note": note,
        "rows": rows,
        # what each agent played: every option and each model file by role and SHA-256
        "resolved": resolve_specs(list(workloads), sims=SEARCH_SIMS),
    }


def main(argv: list[str] | None = None) -> int:
    return workload_main(argv, "python benchmarks/agent_speeds.py", __doc__, DEFAULT_GAMES, run_all)


if __name__ == "__main__":
    raise SystemExit(main())

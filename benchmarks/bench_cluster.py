"""What a Ray cluster buys: games/s of ``friday eval``'s games on each backend (a study of
the performance report, ``experiments/performance/REPORT.md``).

    python benchmarks/bench_cluster.py --out benchmarks/cluster.json


For each workload (an agent playing evaluation deals of levels 1-4), games are played
through ``friday_agents.harness.parallel.run_games``: in this process (the
baseline), then as Ray tasks on a local Ray with 1 and with 2 CPUs. Ray's start-up and its
workers' first imports are not timed (a warm-up task runs first); each run's per-worker
setup (building the agent) is. A projection per node follows from the measurements: a node
with C cores plays about C times the 1-CPU Ray rate, times the efficiency measured from 1
to 2 CPUs — an extrapolation from two points on one machine, not a measurement of a
cluster. The report's cluster section is rendered from the run by ``tools/sections/bench.py``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

#: Agent spec -> games per run. Heuristic games take milliseconds (Ray's per-task cost
#: shows); search games take about a second (the case a cluster is for).
DEFAULT_WORKLOADS = {"heuristic": 2000, "search:sims=16": 48}
NODE_SIZES = (8, 32, 64)
#: The command that measures the committed run (``benchmarks/cluster.json``).
COMMAND = "python benchmarks/bench_cluster.py --out benchmarks/cluster.json"


def _tasks(spec: str, games: int) -> tuple[Any, list[Any]]:
    from friday_agents.evaluation.runner import EvalConfig

    per_level = -(-games // 4)
    config = EvalConfig(
        agents=(spec,), levels=(1, 2, 3, 4), games={spec: per_level}, search_sims=16
    )
    return config, config.tasks()[:games]


def _timed(config: Any, tasks: list, backend: str) -> float:
    from friday_agents.evaluation import runner
    from friday_agents.harness.parallel import run_games

    start = time.perf_counter()
    played = sum(
        1
        for _ in run_games(
            runner.play_task,
            tasks,
            backend=backend,
            workers=1 if backend == "process" else None,
            setup=runner.prepare_worker,
            setup_args=(config,),
        )
    )
    assert played == len(tasks)
    return time.perf_counter() - start


def measure(spec: str, games: int, ray_cpus: tuple[int, ...] = (1, 2)) -> list[dict[str, Any]]:
    """Games/s of ``spec`` in this process and on local Rays of each size in ``ray_cpus``."""
    from friday_agents.harness.parallel import connect_ray, import_ray

    ray = import_ray()
    config, tasks = _tasks(spec, games)
    rows = [{"agent": spec, "backend": "this process", "cpus": 1, "games": len(tasks)}]
    rows[0]["seconds"] = _timed(config, tasks, "process")
    for cpus in ray_cpus:
        connect_ray(workers=cpus)
        try:
            warm = ray.remote(num_cpus=1)(_warm_up)
            ray.get([warm.remote() for _ in range(cpus)])  # workers started, agents imported
            seconds = _timed(config, tasks, "ray")
        finally:
            ray.shutdown()
        rows.append({"agent": spec, "backend": "Ray, local", "cpus": cpus, "games": len(tasks)})
        rows[-1]["seconds"] = seconds
    for row in rows:
        row["games_per_s"] = row["games"] / row["seconds"]
    return rows


def _warm_up() -> None:
    pass


def projection(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Per-node games/s extrapolated from the 1- and 2-CPU Ray rates of one workload."""
    by_cpus = {r["cpus"]: r["games_per_s"] for r in rows if r["backend"] == "Ray, local"}
    efficiency = by_cpus[2] / (2 * by_cpus[1])  # above 100 %: noise; projected as 100 %
    return {
        "agent": rows[0]["agent"],
        "per_cpu": by_cpus[1],
        "efficiency": efficiency,
        "nodes": {str(c): by_cpus[1] * c * min(1.0, efficiency) for c in NODE_SIZES},
    }


def _load() -> float:
    return os.getloadavg()[0]


def run_all(workloads: dict[str, int], note: str) -> dict[str, Any]:
    load_before = _load()
    rows = [row for spec, games in workloads.items() for row in measure(spec, games)]
    import ray

    return {
        "when": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": f"{platform.processor() or platform.machine()}, {os.cpu_count()} logical cores",
        "python": platform.python_version(),
        "ray": ray.__version__,
        "load_before": load_before,
        "load_after": _load(),
        "note": note or "no note",
        "rows": rows,
        "projections": [projection([r for r in rows if r["agent"] == spec]) for spec in workloads],
    }


def parse_workloads(text: str) -> dict[str, int]:
    """``agent=games,agent=games`` as a dict; a ``ValueError`` naming a malformed item."""
    workloads = {}
    for item in text.split(","):
        spec, _, count = item.rpartition("=")
        if not spec or not count.isdigit() or int(count) < 1:
            raise ValueError(f"--games: {item!r} is not agent=games with games at least 1")
        workloads[spec] = int(count)
    return workloads


def workload_main(
    argv: list[str] | None,
    prog: str,
    description: str,
    defaults: dict[str, int],
    run_all: Callable[[dict[str, int], str], dict[str, Any]],
) -> int:
    """The command line of the workload scripts (this one, ``agent_speeds.py``): ``--games
    agent=games,...``, ``--note``, ``--out`` (default: print the run). Bad input stops in
    one line, status 2, before anything runs."""
    parser = argparse.ArgumentParser(allow_abbrev=False, prog=prog, description=description)
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument("--out", type=Path, help="write the run as JSON here (default: print it)")
    parser.add_argument("--note", default="", help="a note on the conditions of the run")
    parser.add_argument(
        "--games",
        default=",".join(f"{k}={v}" for k, v in defaults.items()),
        help="workloads as agent=games, comma-separated (default %(default)s)",
    )
    args = parser.parse_args(argv)
    try:
        workloads = parse_workloads(args.games)
        if args.out and args.out.is_dir():
            raise ValueError(f"--out {args.out}: is a folder; name the JSON file to write")
    except ValueError as err:
        print(f"{prog}: {err}", file=sys.stderr)
        return 2
    print(f"measuring {', '.join(f'{s} ({n} games)' for s, n in workloads.items())}", flush=True)
    text = json.dumps(run_all(workloads, args.note), indent=1) + "\n"
    if args.out:
        args.out.write_text(text, encoding="utf-8")
        print(f"written to {args.out}")
    else:
        print(text)
    return 0


def main(argv: list[str] | None = None) -> int:
    return workload_main(
        argv, "python benchmarks/bench_cluster.py", __doc__, DEFAULT_WORKLOADS, run_all
    )


if __name__ == "__main__":
    raise SystemExit(main())

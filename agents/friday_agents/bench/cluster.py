"""What a Ray cluster buys: games/s of ``friday eval``'s games on each backend.

    python -m friday_agents.bench.cluster --out benchmarks/cluster.json \
        --readme experiments/performance/REPORT.md

For each workload (an agent playing evaluation deals of levels 1-4), games are played
through
[`friday_agents.evaluation.backends.run_games`][friday_agents.evaluation.backends.run_games]: in
this process (the baseline), then as Ray tasks on a local Ray with 1 and with 2 CPUs. Ray's start-up
and its workers' first imports are not timed (a warm-up task runs first); each run's per-worker
setup (building the agent) is. A projection per node follows from the measurements: a node with C
cores plays about C times the 1-CPU Ray rate, times the efficiency measured from 1 to 2 CPUs — an
extrapolation from two points on one machine, not a measurement of a cluster.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from friday_agents.evaluation import runner
from friday_agents.evaluation.backends import connect_ray, import_ray, run_games
from friday_agents.evaluation.runner import EvalConfig
from friday_agents.sections import replace_section

#: Agent spec -> games per run. Heuristic games take milliseconds (Ray's per-task cost
#: shows); search games take about a second (the case a cluster is for).
DEFAULT_WORKLOADS = {"heuristic": 2000, "search:sims=16": 48}
NODE_SIZES = (8, 32, 64)
SECTION = "cluster"  # the README section this run rewrites


def _tasks(spec: str, games: int) -> tuple[EvalConfig, list[runner.Task]]:
    per_level = -(-games // 4)
    config = EvalConfig(
        agents=(spec,), levels=(1, 2, 3, 4), games={spec: per_level}, search_sims=16
    )
    return config, config.tasks()[:games]


def _timed(config: EvalConfig, tasks: list, backend: str) -> float:
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
        "note": note,
        "rows": rows,
        "projections": [projection([r for r in rows if r["agent"] == spec]) for spec in workloads],
    }


# ------------------------------------------------------------------------- reporting

MODULE = __spec__.name if __spec__ else __name__  # the dotted name, also under python -m
COMMAND = (
    f"python -m {MODULE} --out benchmarks/cluster.json --readme experiments/performance/REPORT.md"
)


def markdown(doc: dict[str, Any]) -> str:
    lines = [
        f"Measured with `{COMMAND}` on {doc['when']}: {doc['machine']}, Python {doc['python']}, "
        f"Ray {doc['ray']}; load average {doc['load_before']:.2f} at the start and "
        f"{doc['load_after']:.2f} at the end ({doc['note']}). `benchmarks/cluster.json` holds "
        "the run.",
        "",
        "| agent | played | CPUs | games | seconds | games/s |",
        "| --- | --- | ---: | ---: | ---: | ---: |",
    ]
    for r in doc["rows"]:
        lines.append(
            f"| {r['agent']} | {r['backend']} | {r['cpus']} | {r['games']} | "
            f"{r['seconds']:.2f} | {r['games_per_s']:.1f} |"
        )
    sizes = " | ".join(f"node of {c} cores" for c in NODE_SIZES)
    lines += [
        "",
        "Projection per node: the 1-CPU Ray rate × cores × the efficiency measured from 1 to 2 "
        "CPUs, at most 100 % (an extrapolation from two points on one machine, not a cluster "
        "measurement):",
        "",
        f"| agent | games/s per CPU | efficiency 1 → 2 CPUs | {sizes} |",
        "| --- | ---: | ---: | " + " | ".join("---:" for _ in NODE_SIZES) + " |",
    ]
    for p in doc["projections"]:
        nodes = " | ".join(f"{p['nodes'][str(c)]:.1f} games/s" for c in NODE_SIZES)
        lines.append(f"| {p['agent']} | {p['per_cpu']:.1f} | {p['efficiency']:.0%} | {nodes} |")
    lines += ["", "What Ray adds to each game (1-CPU Ray against this process, per game):", ""]
    lines += [f"- {agent}: {cost}" for agent, cost in ray_costs(doc["rows"]).items()]
    return "\n".join(lines) + "\n"


def ray_costs(rows: list[dict[str, Any]]) -> dict[str, str]:
    """Per agent: the time a game takes on a 1-CPU Ray minus in this process, in ms and as a
    share of the game (negative: within the noise of the run)."""
    costs = {}
    for agent in dict.fromkeys(r["agent"] for r in rows):
        here, ray = (
            next(r for r in rows if r["agent"] == agent and (r["backend"], r["cpus"]) == key)
            for key in (("this process", 1), ("Ray, local", 1))
        )
        per_game_here = here["seconds"] / here["games"]
        extra = ray["seconds"] / ray["games"] - per_game_here
        costs[agent] = (
            f"{extra * 1000:+.1f} ms per game, {extra / per_game_here:+.0%} of a game's "
            f"{per_game_here * 1000:.1f} ms"
        )
    return costs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m friday_agents.bench.cluster", description=__doc__
    )
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument("--out", type=Path, help="write the run as JSON here")
    parser.add_argument("--readme", type=Path, help="rewrite this README's cluster section")
    parser.add_argument("--from-json", type=Path, help="render a saved run instead of measuring")
    parser.add_argument("--note", default="", help="a note on the conditions of the run")
    parser.add_argument(
        "--games",
        default=",".join(f"{k}={v}" for k, v in DEFAULT_WORKLOADS.items()),
        help="workloads as agent=games, comma-separated (default %(default)s)",
    )
    args = parser.parse_args(argv)
    if args.from_json:
        doc = json.loads(args.from_json.read_text())
    else:
        workloads = dict(
            (spec, int(count))
            for spec, _, count in (w.rpartition("=") for w in args.games.split(","))
        )
        doc = run_all(workloads, args.note or "no note")
    section = markdown(doc)
    print(section)
    if args.out:
        args.out.write_text(json.dumps(doc, indent=1) + "\n")
    if args.readme:
        text = args.readme.read_text(encoding="utf-8")
        args.readme.write_text(replace_section(text, SECTION, section), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""The learned-agent study: measure a recipe's policies and draw its learning curves.

``python experiments/imitation/study.py evaluate NAME --agent SPEC ...`` plays SPEC
(``{level}`` in it is replaced per level) on the first ``--games`` evaluation deals of each
level and writes
``experiments/imitation/results/NAME.json``: per level the win/loss and score of every deal
(so any two rows compare paired, deal by deal) and the CPU seconds the recipe spent per level
(teacher games from the games files' per-game times, fits from ``*.fit.json``, training steps
from ``timed`` logs).

``python experiments/imitation/study.py timed LOG -- COMMAND...`` runs a command and
appends its CPU seconds (the command's and its children's) to ``LOG``.

``python experiments/imitation/study.py plot`` draws the learning curves
(``results/curves.png``). The table of ``experiments/imitation/REPORT.md`` is rendered from
the result files by ``python tools/docs_sections.py``, the one writer of generated Markdown.
"""

from __future__ import annotations

import argparse
import csv
import json
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from friday_agents.evaluation.runner import play_deals
from friday_agents.harness.games_file import read_games
from friday_agents.players.resolved import resolve_spec
from friday_agents.players.search import DEFAULT_SIMS

#: The study's result files, beside this script (whatever the working directory).
RESULTS = Path(__file__).resolve().parent / "results"


def evaluate(spec: str, level: int, games: int, workers: int, first: int = 0) -> dict[str, Any]:
    """Win/loss and score of ``spec`` on ``games`` evaluation deals of ``level`` from deal
    ``first`` on, played by ``friday eval``'s runner (:func:`play_deals`). Result files
    written before the runner was used record ``eval_cpu_seconds`` (process CPU time); these
    record ``eval_seconds``, the wall-clock seconds of the games as ``friday eval`` times them."""
    rows = play_deals(
        spec, level, range(first, first + games), search_sims=DEFAULT_SIMS, workers=workers
    )
    wins = [int(row["won"]) for row in rows]
    scores = [row["score"] for row in rows]
    return {
        "agent": spec,
        # what played: every option and each model file by role and SHA-256
        "resolved": resolve_spec(spec, sims=DEFAULT_SIMS),
        "games": games,
        "wins": "".join(map(str, wins)),
        "scores": scores,
        "win_rate": float(np.mean(wins)),
        "mean_score": float(np.mean(scores)),
        "eval_seconds": round(sum(row["seconds"] for row in rows), 1),
    }


def collect_seconds(paths: list[Path], level: int, timing: Path | None = None) -> float:
    """CPU seconds the teacher spent on the games of ``level`` in ``paths``. Games without a
    time (a cache written by another collector) are charged the mean per-game time of the
    same level in ``timing``, a games file of the project's collector."""
    games = [g for p in paths for g in read_games(p) if g["level"] == level]
    untimed = sum(1 for g in games if "seconds" not in g)
    total = sum(g.get("seconds", 0.0) for g in games)
    if untimed:
        if timing is None:
            raise ValueError(f"{untimed} games of level {level} have no time: give --timing")
        times = [g["seconds"] for g in read_games(timing) if g["level"] == level]
        total += untimed * float(np.mean(times))
    return total


def same_games_command(args: argparse.Namespace) -> int:
    """Check that the games two files share (same level and deal) are the same games."""
    cache = {(g["level"], g["index"]): g for g in read_games(args.cache)}
    mine = read_games(args.games)
    keys = ("seed", "actions", "won", "score", "q")
    shared = [g for g in mine if (g["level"], g["index"]) in cache]
    differ = [g for g in shared if any(g[k] != cache[g["level"], g["index"]][k] for k in keys)]
    print(f"{len(shared)} shared games, {len(differ)} differ")
    return 1 if differ or not shared else 0


def fit_seconds(templates: list[str], level: int) -> float:
    """CPU seconds of the fits whose logs ``templates`` name (``{level}`` replaced)."""
    total = 0.0
    for template in templates:
        path = Path(template.format(level=level))
        if not path.exists():
            raise ValueError(f"fit log {str(path)!r} does not exist")
        total += float(json.loads(path.read_text())["cpu_seconds"])
    return total


def timed_seconds(log: Path, level: int) -> float:
    """CPU seconds of the ``timed`` steps of ``level`` (or of no particular level, shared
    by the levels it lists) in ``log``."""
    if not log or not Path(log).exists():
        return 0.0
    total = 0.0
    for line in Path(log).read_text().splitlines():
        step = json.loads(line)
        if level in step["levels"]:
            total += step["cpu_seconds"] / len(step["levels"])
    return total


def _levels(text: str) -> list[int]:
    return [int(x) for x in text.replace(",", " ").split()]


#: The study's held-out deals: evaluation-range deals from this index on (never the
#: reported ones; ``friday train``'s curve played them when the study ran).
CURVE_DEAL_OFFSET = 500_000


def curve_point_command(args: argparse.Namespace) -> int:
    """Append one point per level to a curve file: held-out deals (from index 500,000 of the
    evaluation range, never the reported ones)."""
    rows = []
    if args.out.exists():
        with args.out.open(newline="") as handle:
            rows = [r for r in csv.DictReader(handle) if float(r["x"]) != args.x]
    for level in _levels(args.levels):
        result = evaluate(
            args.agent.format(level=level), level, args.games, args.workers, CURVE_DEAL_OFFSET
        )
        point = {"level": level, "x": args.x, "x_label": args.x_label, "games": args.games}
        point.update(win_rate=result["win_rate"], mean_score=result["mean_score"])
        print(point)
        rows.append(point)
    write_curve(args.out, sorted(rows, key=lambda r: (int(r["level"]), float(r["x"]))))
    return 0


def evaluate_command(args: argparse.Namespace) -> int:
    levels = _levels(args.levels)
    out = args.results / f"{args.name}.json"
    record = json.loads(out.read_text()) if out.exists() else {"name": args.name, "levels": {}}
    record.update(title=args.title or record.get("title", args.name), note=args.note or "")
    for level in levels:
        spec = args.agent.format(level=level)
        stored = record["levels"].get(str(level))
        if args.costs_only and stored and stored["agent"] == spec:
            result = stored  # the games are already measured: only the costs change
        else:
            result = evaluate(spec, level, args.games, args.workers)
        cost = {
            "collect": collect_seconds(args.data, level, args.timing) * args.collect_share,
            "fit": fit_seconds(args.fits, level) * args.fit_share,
            "train": timed_seconds(args.timed, level),
        }
        if args.base:
            base = json.loads((args.results / f"{args.base}.json").read_text())
            for key, value in base["levels"][str(level)]["cpu_seconds"].items():
                cost[key] += value
        result["cpu_seconds"] = {k: round(v, 1) for k, v in cost.items()}
        record["levels"][str(level)] = result
        minutes = sum(cost.values()) / 60
        print(
            f"{args.name} level {level}: {result['win_rate']:.1%} wins, "
            f"mean score {result['mean_score']:.1f}, recipe {minutes:.1f} CPU min"
        )
        args.results.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(record, indent=1) + "\n")
    return 0


def timed_command(args: argparse.Namespace) -> int:
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    started = time.perf_counter()
    status = subprocess.call(command)
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    step = {
        "command": " ".join(command),
        "levels": [int(x) for x in args.levels.replace(",", " ").split()],
        "cpu_seconds": round(usage.ru_utime + usage.ru_stime, 1),
        "wall_seconds": round(time.perf_counter() - started, 1),
        "status": status,
    }
    Path(args.log).parent.mkdir(parents=True, exist_ok=True)
    with Path(args.log).open("a") as handle:
        handle.write(json.dumps(step) + "\n")
    return status


CURVE_COLUMNS = ("level", "x", "x_label", "win_rate", "mean_score", "games")


def write_curve(path: Path, points: list[dict[str, Any]]) -> None:
    """A curve file of the README's plot: one row per (level, x) point."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=CURVE_COLUMNS)
        writer.writeheader()
        writer.writerows(points)


def curve_command(args: argparse.Namespace) -> int:
    """Copy a ``friday train`` curve (held-out deals) into a study curve file."""
    from friday_agents.harness.curve import heldout_rows, read_curve

    points = [
        {
            "level": int(row["level"]),
            "x": int(row["frames"]) + args.x_offset,
            "x_label": args.x_label,
            "win_rate": row["heldout_win_rate"],
            "mean_score": row["heldout_mean_score"],
            "games": int(row["heldout_deals"]),
        }
        for row in heldout_rows(read_curve(args.train_curve))
    ]
    write_curve(args.out, points)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python experiments/imitation/study.py", description=__doc__, allow_abbrev=False
    )
    steps = parser.add_subparsers(dest="step", required=True)
    ev = steps.add_parser(
        "evaluate", help="measure a recipe's policies on evaluation deals", allow_abbrev=False
    )
    ev.add_argument("name", help="result file name (experiments/imitation/results/NAME.json)")
    ev.add_argument("--agent", required=True, help="agent spec; {level} is replaced")
    ev.add_argument("--levels", default="1 2 3 4")
    ev.add_argument("--games", type=int, default=1000)
    ev.add_argument("--workers", type=int, default=2)
    ev.add_argument("--title", help="row title in the README table")
    ev.add_argument("--note", help="what the row is (shown under the table)")
    ev.add_argument("--data", type=Path, nargs="*", default=[], help="teacher games files")
    ev.add_argument("--timing", type=Path, help="timed games for a cache without times")
    ev.add_argument(
        "--collect-share",
        type=float,
        default=1.0,
        help="share of those games' CPU the recipe used (e.g. a subset)",
    )
    ev.add_argument("--fits", nargs="*", default=[], help="fit logs; {level} is replaced")
    ev.add_argument(
        "--fit-share", type=float, default=1.0, help="share of the fit charged to each level"
    )
    ev.add_argument("--timed", type=Path, help="log of `timed` steps")
    ev.add_argument("--base", help="a result row whose recipe this one continues (costs added)")
    ev.add_argument(
        "--costs-only", action="store_true", help="keep measured games, recompute the costs"
    )
    ev.add_argument("--results", type=Path, default=RESULTS, help=f"directory (default {RESULTS})")
    ev.set_defaults(run=evaluate_command)
    timed = steps.add_parser("timed", help="run a command, log its CPU seconds", allow_abbrev=False)
    timed.add_argument("log")
    timed.add_argument("--levels", required=True, help="levels the step serves")
    timed.add_argument("command", nargs=argparse.REMAINDER)
    timed.set_defaults(run=timed_command)
    point = steps.add_parser(
        "curve-point", help="held-out win rate of a policy as a curve point", allow_abbrev=False
    )
    point.add_argument("out", type=Path, help="curve file (csv)")
    point.add_argument("--agent", required=True, help="agent spec; {level} is replaced")
    point.add_argument("--x", type=float, required=True)
    point.add_argument("--x-label", required=True)
    point.add_argument("--levels", default="1 2 3 4")
    point.add_argument("--games", type=int, default=200)
    point.add_argument("--workers", type=int, default=2)
    point.set_defaults(run=curve_point_command)
    curve = steps.add_parser(
        "curve", help="a friday train curve.csv -> a study curve file", allow_abbrev=False
    )
    curve.add_argument("train_curve", type=Path)
    curve.add_argument("out", type=Path)
    curve.add_argument("--x-label", default="PPO timesteps")
    curve.add_argument("--x-offset", type=int, default=0)
    curve.set_defaults(run=curve_command)
    same = steps.add_parser(
        "same-games", help="check a cache against the collector's games", allow_abbrev=False
    )
    same.add_argument("games", type=Path, help="games from `friday imitate collect`")
    same.add_argument("cache", type=Path, help="games file used as its cache")
    same.set_defaults(run=same_games_command)
    plot = steps.add_parser(
        "plot", help="draw the learning curves into results/curves.png", allow_abbrev=False
    )
    plot.add_argument(
        "--results", type=Path, default=RESULTS, help=f"directory (default {RESULTS})"
    )
    plot.set_defaults(run=_plot)
    args = parser.parse_args(argv)
    return int(args.run(args) or 0)


def _plot(args: argparse.Namespace) -> int:
    from plot import plot_curves  # the study's own plot.py, beside this script

    plot_curves(args.results, args.results / "curves.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())

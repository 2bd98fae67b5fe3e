"""``friday distill``: expert iteration, round after round (see
[`friday_agents.learning.distill.rounds`][friday_agents.learning.distill.rounds]). Each run gets a
new folder unless ``--out`` names one; run the same command with ``--out`` again and it goes on
where it stopped (Ctrl-C prints that command). The project's own study: ``--out
experiments/expert-iteration/results --data data/expert-iteration``."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from pathlib import Path
from typing import Any

from friday_agents.cli.arguments import plain
from friday_agents.harness.files import new_run_folder, path_safe

DEFAULT_CONFIG = Path("experiments/expert-iteration/config.json")
#: Where a run without ``--out`` gets its own new folder.
RUNS_DIR = Path("results/distill")
#: The games' folder inside the run's when ``--data`` is not given.
GAMES_IN_RUN = "games"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = plain(__doc__)
    parser.add_argument(
        "--config",
        type=Path,
        default=DEFAULT_CONFIG,
        help=f"study settings (default {DEFAULT_CONFIG})",
    )
    parser.add_argument(
        "--out",
        type=Path,
        help=f"networks, summaries and the curve; an existing run continues (default: a new "
        f"folder under {RUNS_DIR} named by the configuration and start time)",
    )
    parser.add_argument(
        "--data",
        type=Path,
        help=f"the rounds' games files, large (default: OUT/{GAMES_IN_RUN})",
    )
    parser.add_argument(
        "--rounds", type=int, help="play rounds up to this many (default: the configuration's)"
    )
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bars")
    parser.set_defaults(out_is_folder=True)


def run(args: argparse.Namespace) -> int:
    from friday_agents.harness.parallel import GamesInterrupted
    from friday_agents.learning.distill.config import ExitConfigError, load_config
    from friday_agents.learning.distill.report import write_curve
    from friday_agents.learning.distill.rounds import run_rounds

    try:
        config = load_config(args.config)
    except ExitConfigError as err:
        print(f"friday distill: error: {err}", file=sys.stderr)
        return 2
    rounds = config.rounds if args.rounds is None else args.rounds
    if rounds < 1 or args.workers < 1:
        print("friday distill: error: --rounds and --workers must be at least 1", file=sys.stderr)
        return 2
    out = args.out or new_run_folder(RUNS_DIR, path_safe(args.config.stem))
    data = args.data or out / GAMES_IN_RUN
    command = f"friday {args.command}"  # the name it was run by
    again = f"{command} --config {args.config} --out {out} --data {data}"
    print(
        f"{command}: {rounds} round{'s' * (rounds != 1)} of {args.config} on {args.workers} "
        f"worker{'s' * (args.workers != 1)}; networks "
        f"and summaries to {out}, games to {data}",
        flush=True,
    )
    try:
        summaries = run_rounds(config, out, data, args.workers, _progress(args), rounds)
    except (KeyboardInterrupt, GamesInterrupted) as stop:
        why = getattr(stop, "reason", "interrupted")  # Ctrl-C, or a worker that died
        print(
            f"\n{command}: {why}; every finished round is in {out} and every finished "
            f"game in {data}. Continue with: {again}",
            file=sys.stderr,
        )
        return 130 if why == "interrupted" else 1
    curve = write_curve(out, summaries)
    print(json.dumps(curve["rows"], indent=1))
    return 0


def _progress(args: argparse.Namespace):
    def bar(what: str, total: int) -> Any:
        if args.no_progress:
            return contextlib.nullcontext(_Silent())
        from tqdm import tqdm

        return tqdm(total=total, desc=what, unit="game")

    return bar


class _Silent:
    def update(self, n: int = 1) -> None:
        """No bar."""

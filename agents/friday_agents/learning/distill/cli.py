"""``friday exit``: expert iteration, round after round (see
[`friday_agents.learning.distill.rounds`][friday_agents.learning.distill.rounds]). Resumable: run
the same command again and it goes on where it stopped."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from pathlib import Path
from typing import Any

from friday_agents.conventions import plain

DEFAULT_CONFIG = Path("experiments/expert-iteration/config.json")
DEFAULT_OUT = Path("experiments/expert-iteration/results")
DEFAULT_DATA = Path("data/expert-iteration")


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
        default=DEFAULT_OUT,
        help=f"networks, summaries and the curve (default {DEFAULT_OUT})",
    )
    parser.add_argument(
        "--data",
        type=Path,
        default=DEFAULT_DATA,
        help=f"the rounds' games files, large (default {DEFAULT_DATA})",
    )
    parser.add_argument(
        "--rounds", type=int, help="play rounds up to this many (default: the configuration's)"
    )
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bars")


def run(args: argparse.Namespace) -> int:
    from friday_agents.learning.distill.config import ExitConfigError, load_config
    from friday_agents.learning.distill.report import write_curve
    from friday_agents.learning.distill.rounds import run_rounds

    try:
        config = load_config(args.config)
    except ExitConfigError as err:
        print(f"friday exit: error: {err}", file=sys.stderr)
        return 2
    rounds = config.rounds if args.rounds is None else args.rounds
    if rounds < 1 or args.workers < 1:
        print("friday exit: error: --rounds and --workers must be at least 1", file=sys.stderr)
        return 2
    summaries = run_rounds(config, args.out, args.data, args.workers, _progress(args), rounds)
    curve = write_curve(args.out, summaries)
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

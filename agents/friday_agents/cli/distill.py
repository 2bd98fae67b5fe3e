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

from friday_agents.cli.arguments import add_setting_flags, add_workers, plain
from friday_agents.harness.device import DEVICES, torch_device
from friday_agents.harness.errors import BadInputError
from friday_agents.harness.files import new_run_folder, path_safe
from friday_agents.learning.config import SHARED_HELP
from friday_agents.learning.distill.config import ExitConfig
from friday_env.levels import parse_levels

DEFAULT_CONFIG = Path("experiments/expert-iteration/config.json")
#: The settings a flag may override: budgets, for runs smaller than the study's (a try, a
#: test), the labelling search's leaf value and candidates (a study's own search), and
#: where each fit starts.
SMALL_BUDGET = {
    "rounds": "rounds to play",
    "teacher_games": "games per level and round played by the search",
    "student_games": "games per level and round played by the network alone (DAgger)",
    "sims": "the labelling search's simulations per decision",
    "top": "how many of the network's best actions the labelling search tries besides the "
    "heuristic's choice",
    "value": "the labelling search's leaf value: a model role (guided-value-per-level) or a "
    "file (a per-level .json naming a leaf network for some levels, an .npz)",
    "epochs": "passes over the data per fit",
    "warm_start": "true: each round's fit starts from the round's prior's weights (which must "
    "have the shape of --config's hidden), not from random ones",
    "validation_net": "validation deals per level for the network alone",
    "validation_search": "validation deals per level for the network guiding the search",
}
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
    # a tiny run for a try or a test: every budget of the configuration can be cut here
    add_setting_flags(parser, ExitConfig, SMALL_BUDGET, source="--config")
    parser.add_argument(
        "--levels", type=parse_levels, help="levels, e.g. 1 or 1-4 (default: --config's)"
    )
    add_workers(parser)
    parser.add_argument(
        "--device",
        default="auto",
        choices=DEVICES,
        help=f"{SHARED_HELP['device']}; only the fits use it (default: auto)",
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bars")
    parser.set_defaults(out_is_folder=True)


def run(args: argparse.Namespace) -> int:
    from friday_agents.learning.run_folder import held

    # the run's folders are this session's before anything there is read (another session on
    # either is refused: it would store every game twice)
    same = args.data and args.out and args.data.absolute() == args.out.absolute()
    with held(args.out) as out_lock, held(None if same else args.data) as data_lock:
        return _distill(args, out_lock, data_lock)


def _distill(args: argparse.Namespace, out_lock, data_lock) -> int:
    from friday_agents.harness.parallel import GamesInterrupted
    from friday_agents.learning.distill.config import load_config, with_overrides
    from friday_agents.learning.distill.report import write_curve
    from friday_agents.learning.distill.rounds import run_rounds

    config = load_config(args.config)
    given = {name: getattr(args, name) for name in (*SMALL_BUDGET, "levels")}
    config = with_overrides(config, args.config, **given)
    rounds = config.rounds
    if args.workers < 1:
        raise BadInputError("--workers must be at least 1")
    device = torch_device(args.device)
    out = args.out or new_run_folder(RUNS_DIR, path_safe(args.config.stem))
    data = args.data or out / GAMES_IN_RUN
    out_lock.take(out)
    if not data.absolute().is_relative_to(out.absolute()):
        data_lock.take(data)
    command = f"friday {args.command}"  # the name it was run by
    again = f"{command} --config {args.config} --out {out} --data {data}"
    again += "".join(
        f" --{n.replace('_', '-')} {_flag_text(v)}" for n, v in given.items() if v is not None
    )
    print(
        f"{command}: {rounds} round{'s' * (rounds != 1)} of {args.config} on {args.workers} "
        f"worker{'s' * (args.workers != 1)}; networks "
        f"and summaries to {out}, games to {data}; fits on {device}",
        flush=True,
    )
    try:
        summaries = run_rounds(config, out, data, args.workers, _progress(args), rounds, device)
    except (KeyboardInterrupt, GamesInterrupted) as stop:
        why = getattr(stop, "reason", "interrupted")  # Ctrl-C, or a worker that died
        print(
            f"\n{command}: {why}; every finished round is in {out} and every finished "
            f"game in {data}. Continue with: {again}",
            file=sys.stderr,
        )
        return 130 if why == "interrupted" else 1
    print(json.dumps(write_curve(out, summaries), indent=1))
    return 0


def _flag_text(value: Any) -> str:
    """A setting's value as its flag reads it (levels as 1,4)."""
    return ",".join(map(str, value)) if isinstance(value, tuple) else str(value)


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

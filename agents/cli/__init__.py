"""The ``friday`` command of friday-env: one entry point, a subcommand per tool.

Each subcommand lives in its own module exposing ``add_arguments(parser)`` and
``run(args) -> int``; modules are imported only when their subcommand runs, so
``friday play`` never pays for torch. ``add_arguments`` must not import torch either:
import heavy libraries inside ``run``.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import os
import sys

import friday_env
from friday_agents.cli.conventions import MissingExtraError, missing_extra, plain
from friday_env.core import core_in_use

SUBCOMMANDS = {
    "eval": (
        "friday_agents.evaluation.evaluate",
        "benchmark agents on the four levels (win rate, score)",
    ),
    "play": ("friday_agents.human", "play a game in the terminal"),
    "replay": ("friday_agents.cli.replay", "step through a saved game record"),
    "view": (
        "friday_agents.cli.view",
        "write a game viewer page (HTML) for a saved game or evaluation",
    ),
    "train": ("friday_agents.training.train", "train a MaskablePPO agent"),
    "imitate": (
        "friday_agents.imitation.cli",
        "learn a MaskablePPO policy from an agent's games",
    ),
    "bench": ("friday_agents.bench.suite", "measure engine and environment speed"),
}


def _available() -> dict[str, tuple[str, str]]:
    found = {}
    for name, (module, help_text) in SUBCOMMANDS.items():
        if importlib.util.find_spec(module) is not None:
            found[name] = (module, help_text)
    return found


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="friday", description=plain(__doc__.splitlines()[0]))
    parser.add_argument(
        "--version",
        action="version",
        version=f"%(prog)s {friday_env.__version__} ({core_in_use()})",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, (module, help_text) in _available().items():
        sub = commands.add_parser(name, help=help_text, description=help_text)
        sub.set_defaults(_module=module)
        importlib.import_module(module).add_arguments(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run a subcommand; its exit status. A missing optional library is named with the
    extra that installs it (status 2); output into a closed pipe (``friday replay | head``)
    ends quietly."""
    args = build_parser().parse_args(argv)
    try:
        return int(importlib.import_module(args._module).run(args) or 0)
    except MissingExtraError as err:
        return _missing(args.command, err)
    except ModuleNotFoundError as err:
        extra = missing_extra(err, f"friday {args.command}")
        if extra is None:
            raise
        return _missing(args.command, extra)
    except BrokenPipeError:
        # the reader went away: send what is still buffered nowhere, and stop like a
        # program killed by SIGPIPE would
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141


def _missing(command: str, err: MissingExtraError) -> int:
    print(f"friday {command}: error: {err}", file=sys.stderr)
    return 2

"""The ``friday`` command: one entry point, a subcommand per tool.

Each subcommand lives in its own module exposing ``add_arguments(parser)`` and
``run(args) -> int``; modules are imported only when their subcommand runs, so
``friday play`` never pays for torch. ``add_arguments`` must not import torch either:
import heavy libraries inside ``run``.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util

SUBCOMMANDS = {
    "eval": (
        "friday_agents.evaluation.evaluate",
        "benchmark agents on the four levels (win rate, score)",
    ),
    "play": ("friday_agents.human", "play a game in the terminal"),
    "replay": ("friday_agents.cli.replay", "step through a saved game record"),
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
    parser = argparse.ArgumentParser(prog="friday", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, (module, help_text) in _available().items():
        sub = commands.add_parser(name, help=help_text, description=help_text)
        sub.set_defaults(_module=module)
        importlib.import_module(module).add_arguments(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(importlib.import_module(args._module).run(args) or 0)

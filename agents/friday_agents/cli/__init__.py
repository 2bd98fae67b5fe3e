"""The ``friday`` command of friday-env: one entry point, a subcommand per tool.

Each subcommand lives in its own module exposing ``add_arguments(parser)`` and
``run(args) -> int``; a module is imported only when its subcommand runs (``friday --help``
imports none, ``friday eval`` only the evaluation), so ``friday play`` never pays for torch.
``add_arguments`` must not import torch either: import heavy libraries inside ``run``.
"""

from __future__ import annotations

import argparse
import errno
import importlib
import importlib.util
import os
import sys

import friday_env
from friday_agents.cli.arguments import plain
from friday_agents.harness.errors import BadInputError, MissingExtraError, missing_extra
from friday_agents.harness.files import check_out_path
from friday_agents.harness.parallel import usable_cpus
from friday_env.core import CoreError, core_in_use, default_core

Subcommand = tuple[str, str]  # (module, one-line help)
#: Old subcommand name -> its name now: the old one stops with an error naming the new.
RENAMED = {"exit": "distill"}

SUBCOMMANDS = {
    "eval": (
        "friday_agents.cli.eval",
        "benchmark agents on the four levels (win rate, score)",
    ),
    "play": ("friday_agents.cli.play", "play a game in the terminal"),
    "replay": ("friday_agents.cli.replay", "step through a saved game record"),
    "view": (
        "friday_agents.cli.view",
        "write a game viewer page (HTML) for a saved game or evaluation",
    ),
    "train": ("friday_agents.cli.train", "train a MaskablePPO agent"),
    "imitate": (
        "friday_agents.cli.imitate",
        "learn a MaskablePPO policy from an agent's games",
    ),
    "distill": (
        "friday_agents.cli.distill",
        "expert iteration: the search is distilled into a network, round after round",
    ),
    "value": (
        "friday_agents.cli.value",
        "the search's learned leaf value: labelled positions in chunks, and the network's fit",
    ),
    "fit": (
        "friday_agents.cli.fit",
        "the search's models fitted on games files: linear value, value network, policy prior",
    ),
    "rl": (
        "friday_agents.cli.rl",
        "masked PPO on the native vector env (fine-tune or from scratch)",
    ),
    "explore": (
        "friday_agents.cli.explore",
        "look for wins on training deals with a Go-Explore archive (no teacher)",
    ),
    "strategy": (
        "friday_agents.cli.strategy",
        "what strong play looks like: a recorded player's games against the heuristic's",
    ),
    "tracks": (
        "friday_agents.cli.tracks",
        "the benchmark's leaderboard: tracks, budgets, win rates (from the committed results)",
    ),
    "thirteen": (
        "friday_agents.cli.thirteen",
        "Friday the 13th, the 3-6 player game: evaluate, train (self-play PPO), play",
    ),
    "bench": (
        "friday_agents.cli.bench",
        "measure engine and environment speed (a source checkout's benchmarks/bench.py)",
    ),
}


def _available() -> dict[str, Subcommand]:
    """The subcommands whose module is installed, found without importing any of them."""
    found = {}
    for name, (module, help_text) in SUBCOMMANDS.items():
        if importlib.util.find_spec(module) is not None:
            found[name] = (module, help_text)
    return found


def chosen_command(argv: list[str]) -> str | None:
    """The subcommand ``argv`` names: its first word that is not an option (the top-level
    parser's options take no value), or None."""
    return next((word for word in argv if not word.startswith("-")), None)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The ``friday`` parser. Only ``command``'s module is imported, for its arguments (every
    subcommand's when ``command`` is ``"*"``); the others are listed by name and help. No
    parser takes an abbreviation of a flag (argparse would read ``--frame`` as ``--frames``,
    and a later flag starting the same would change what an old command means)."""
    parser = argparse.ArgumentParser(
        prog="friday", description=plain(__doc__.splitlines()[0]), allow_abbrev=False
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"%(prog)s {friday_env.__version__} ({core_in_use()})",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, (module, help_text) in _available().items():
        sub = commands.add_parser(name, help=help_text, description=help_text, allow_abbrev=False)
        sub.set_defaults(_module=module)
        if command in (name, "*"):
            importlib.import_module(module).add_arguments(sub)
            for nested in parsers_within(sub):
                nested.allow_abbrev = False  # the steps a module adds (friday value fit...)
                _plain_help(nested)
    return parser


def parsers_within(parser: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
    """``parser`` and every parser of its subcommands, nested ones included."""
    found = [parser]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in dict.fromkeys(action.choices.values()):
                found += parsers_within(sub)
    return found


def _plain_help(parser: argparse.ArgumentParser) -> None:
    """``parser``'s own help texts (its subcommands' one-line helps included) without the
    docstrings' markup (``plain``): a terminal would show ``x`` and [`x`][y] as they are
    written."""

    def clean(text: str | None) -> str | None:
        return plain(text) if text else text

    parser.description, parser.epilog = clean(parser.description), clean(parser.epilog)
    for action in parser._actions:
        action.help = clean(action.help)
        if isinstance(action, argparse._SubParsersAction):
            for listed in action._choices_actions:
                listed.help = clean(listed.help)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """``argv`` (default ``sys.argv[1:]``) parsed, importing only the named subcommand."""
    argv = sys.argv[1:] if argv is None else list(argv)
    command = chosen_command(argv)
    if command in RENAMED:
        print(
            f"friday {command}: error: the command is now `friday {RENAMED[command]}`",
            file=sys.stderr,
        )
        raise SystemExit(2)
    return build_parser(command).parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Run a subcommand; its exit status. A missing optional library is named with the
    extra that installs it (status 2); output into a closed pipe (``friday replay | head``)
    ends quietly."""
    args = parse_args(argv)
    try:
        check_before_running(args)
        return int(importlib.import_module(args._module).run(args) or 0)
    except (BadInputError, CoreError, MissingExtraError) as err:
        return _bad_input(args, err)
    except ModuleNotFoundError as err:
        extra = missing_extra(err, f"friday {args.command}")
        if extra is None:
            raise
        return _bad_input(args, extra)
    except BrokenPipeError:
        # the reader went away: send what is still buffered nowhere, and stop like a
        # program killed by SIGPIPE would
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except KeyboardInterrupt:  # a command that saves on Ctrl-C has said so; no traceback
        print(f"\nfriday {args.command}: interrupted", file=sys.stderr)
        return 130
    except OSError as err:
        if err.errno not in DISK_FULL:
            raise
        return _bad_input(args, disk_full(err))


#: A write that failed for want of room: the disk, or the user's quota, is full.
DISK_FULL = frozenset({errno.ENOSPC, errno.EDQUOT})


def disk_full(err: OSError) -> str:
    """A full disk in one line: what could not be written. Files are written whole or not
    at all (``harness.files.replace_atomically``) and appended line by line, so what was
    written before stays readable, and a command with ``--resume`` goes on from there."""
    where = f" writing {err.filename}" if err.filename else ""
    return f"{err.strerror or 'no space left on device'}{where}: free some space and run it again"


def check_before_running(args: argparse.Namespace) -> None:
    """What every command needs, checked before it writes anything: ``$FRIDAY_CORE``
    names a core, and ``--out`` can be written (a folder where the command sets
    ``out_is_folder``, else a file); ``--workers`` is capped at the CPUs this process may use
    (`cap_workers`)."""
    default_core()
    out = getattr(args, "out", None)
    if out is not None:
        check_out_path(out, folder=getattr(args, "out_is_folder", False))
    cap_workers(args)


def cap_workers(args: argparse.Namespace) -> None:
    """``--workers`` above the CPUs this process may use becomes that count, said in one
    line (more processes only queue for a CPU; ``--workers 1000000`` forked until the load
    passed 380). A Ray cluster's ``--address`` keeps it: there it caps games in flight."""
    workers, cpus = getattr(args, "workers", None), usable_cpus()
    if type(workers) is not int or workers <= cpus or getattr(args, "address", None):
        return
    print(
        f"friday {args.command}: note: --workers {workers} capped at the {cpus} CPUs "
        "this process may use",
        file=sys.stderr,
    )
    args.workers = cpus


def _bad_input(args: argparse.Namespace, err: Exception | str) -> int:
    """The one way a command refuses: one line naming the command (and its step, as in
    ``friday imitate fit``), exit status 2."""
    command = " ".join(filter(None, (args.command, getattr(args, "step", None))))
    print(f"friday {command}: error: {err}", file=sys.stderr)
    return 2
